import torch
free, total = torch.cuda.mem_get_info()
x = torch.empty(int(total * 2) // 4, device='cuda')

import torch
print(torch.cuda.device_count())
x = torch.zeros(3, device='cuda:7')

import torch
t = torch.ones(1, device='cuda')
print(t.device, t.device == torch.device('cuda'), t.device == torch.device('cuda:0'), t.device.type == 'cuda')
print(repr(t.device), t.is_cuda)

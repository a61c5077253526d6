import torch
t = torch.ones(3, device='cuda')
print(t)
print(t.cpu().numpy())
t.numpy()

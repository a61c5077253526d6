import torch

x = torch.tensor([[10, 11, 12], [20, 21, 22]])
idx = torch.tensor([[2], [0]])
print(x.gather(1, idx))
print(x.gather(1, idx.int()))

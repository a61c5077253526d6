import torch

x = torch.tensor([1, 2, 3])
print(x.repeat(2))
print(x.repeat(2, 2))
print(torch.repeat_interleave(x, 2))
print(x.repeat_interleave(torch.tensor([1, 0, 3])))
print(x.unsqueeze(0).expand(3, -1))
print(torch.tile(x, (2,)))

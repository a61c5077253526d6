import torch
x = torch.randn(5)
print(x.index_select(0, torch.tensor([4])).shape)
x.index_select(0, torch.tensor([7]))

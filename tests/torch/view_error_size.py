import torch
x = torch.randn(10)
print(x.view(2, 5).shape)
x.view(3, 3)

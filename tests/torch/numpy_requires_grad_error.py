import torch
x = torch.randn(3, requires_grad=True)
print(x.requires_grad)
x.numpy()

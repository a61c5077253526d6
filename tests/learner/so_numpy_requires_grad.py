import torch

torch.manual_seed(0)
w = torch.randn(2, 2, requires_grad=True)
out = w * 3
print(out.detach().numpy().shape)
print(out.numpy())

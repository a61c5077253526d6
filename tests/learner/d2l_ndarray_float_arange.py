import torch

x = torch.arange(12, dtype=torch.float32)
print(x)
X = x.reshape(-1, 4)
print(X)
print(x.reshape(3, -1).shape)
torch.manual_seed(0)
print(torch.randn(3, 4))

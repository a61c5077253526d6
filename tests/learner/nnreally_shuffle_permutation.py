import torch

torch.manual_seed(0)
n = 8
x_train = torch.arange(n * 2).view(n, 2)
y_train = torch.arange(n)
perm = torch.randperm(n)
print(perm)
x_shuf, y_shuf = x_train[perm], y_train[perm]
print(x_shuf)
print(y_shuf)
idx = torch.randperm(n)[:3]
print(idx, y_train[idx])

import torch

torch.manual_seed(0)
x_train = torch.rand(100, 784) * 255
mean = x_train.mean()
std = x_train.std()
print(mean, std)
x_norm = (x_train - mean) / std
print(x_norm.mean(), x_norm.std())
print(x_norm[0, :5])

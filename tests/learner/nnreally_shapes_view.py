import torch

torch.manual_seed(0)
x_train = torch.rand(10, 784)
xb = x_train.view(-1, 1, 28, 28)
print(xb.shape)
print(xb.size(0), xb.size(1), xb.dim())
flat = xb.view(xb.size(0), -1)
print(flat.shape, torch.equal(flat, x_train))
print(x_train[0].view(28, 28)[0, :5])
print(x_train.reshape(5, 2, 784).shape)

import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(x.shape)
print(y[75:85])
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[75:85])

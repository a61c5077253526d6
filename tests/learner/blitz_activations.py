import torch
import torch.nn.functional as F

x = torch.linspace(-3, 3, 7)
print(x)
print(F.relu(x))
print(torch.sigmoid(x))
print(torch.tanh(x))
print(F.leaky_relu(x, 0.1))
print(F.softmax(x, dim=0))
print(torch.nn.ReLU6()(x * 3))
print(F.elu(x))

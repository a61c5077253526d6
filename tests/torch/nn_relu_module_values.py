import torch
import torch.nn as nn
x = torch.tensor([-1.0, 0.0, 2.0])
print(nn.ReLU()(x))
print(nn.Softmax(dim=0)(torch.tensor([1., 2., 3.])))
print(nn.Flatten()(torch.zeros(2, 3, 4)).shape)
print(nn.Tanh()(torch.tensor([0.0])))
print(nn.ReLU())

import math
import torch

torch.manual_seed(0)
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
print(weights.shape, bias.shape)
print(weights[0])
print(weights.requires_grad, weights.is_leaf)
print(bias)

import torch
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
torch.manual_seed(0)
m = torch.nn.Linear(4, 3)
x = torch.randn(5, 4)
m(x).pow(2).sum().backward()
print(m.weight.grad)
n = clip_grad_norm_(m.parameters(), max_norm=1.0)
print(n)
print(m.weight.grad)
n = clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=float('inf'))
print(n, m.bias.grad)
n = clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=1)
print(n, m.bias.grad)
clip_grad_value_(m.parameters(), 0.05)
print(m.weight.grad)
v = parameters_to_vector(m.parameters())
print(v.shape, v[:4])
vector_to_parameters(torch.arange(15.), m.parameters())
print(m.weight, m.bias)
print(clip_grad_norm_([], 1.0))
m.weight.grad = torch.tensor([[float('inf')] * 4] * 3)
try:
    clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
try:
    clip_grad_norm_(m.parameters(), 1.0, foreach=True)
except RuntimeError as e:
    print(e)
try:
    vector_to_parameters([1.0], m.parameters())
except TypeError as e:
    print(e)
p = torch.nn.Parameter(torch.ones(3)); p.grad = torch.tensor([3.0, 4.0, 0.0])
print(clip_grad_norm_(p, 1.0), p.grad)

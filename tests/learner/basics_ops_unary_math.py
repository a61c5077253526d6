import torch

x = torch.tensor([0.5, 1.0, 2.0])
print(torch.log2(x), torch.log10(x), torch.log1p(x))
print(torch.expm1(x), torch.rsqrt(x))
print(torch.square(x), torch.reciprocal(x))
print(torch.sinh(x), torch.cosh(x))
print(torch.atan2(torch.tensor([1.0]), torch.tensor([-1.0])))
print(torch.erf(x), torch.pow(2, x))
print(torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])))

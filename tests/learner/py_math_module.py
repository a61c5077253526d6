import math
import torch

print(math.sqrt(2), math.exp(1), math.log(10))
print(math.pi, math.e)
t = torch.tensor(2.0)
print(math.sqrt(t), math.isclose(torch.sqrt(t).item(), math.sqrt(2), rel_tol=1e-6))
print(math.floor(2.7), math.ceil(2.1), math.factorial(5))
print(math.inf > 1e308, math.isnan(float('nan')))
print(math.log(torch.tensor(8.0), 2))

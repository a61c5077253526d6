import torch

print(torch.full((2, 2), 7))
print(torch.full((2, 3), 0.5))
print(torch.eye(3))
print(torch.arange(0, 10, 2))
print(torch.arange(5.0))
print(torch.linspace(0, 1, 5))
print(torch.zeros(2, 3, dtype=torch.int64))
print(torch.ones(3, dtype=torch.bool))
print(torch.zeros_like(torch.eye(2)))
print(torch.full_like(torch.arange(3), 4))
print(torch.empty(0))

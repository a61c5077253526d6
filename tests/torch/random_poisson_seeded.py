# A learner simulating event counts: seeded Poisson draws at small and large rates
import torch

torch.manual_seed(0)
rates = torch.tensor([0.5, 1.0, 3.0, 7.5, 12.0, 40.0])
counts = torch.poisson(rates)
print(counts)
print(counts.dtype, counts.shape)
torch.manual_seed(42)
grid = torch.poisson(torch.full((3, 4), 2.5, dtype=torch.float64))
print(grid)
print(grid.mean().item() > 0)
# the generator moves on exactly as PyTorch's does
print(torch.rand(2))
try:
    torch.poisson(torch.tensor([1.0, -2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)

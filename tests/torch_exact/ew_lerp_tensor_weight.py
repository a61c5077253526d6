import torch

def vals(n, k, s, off):
    return torch.tensor([((i * k) % 1009) / s - off for i in range(n)])

for n in [5, 16, 17, 33, 70]:
    a = vals(n, 7919, 337.0, 1.3)
    b = vals(n, 104729, 211.0, 2.1)
    w = vals(n, 31, 500.0, 0.4)
    print(n, torch.lerp(a, b, w).tolist())
    c = a.clone()
    c.lerp_(b, w)
    print(n, c.tolist())
# broadcast weight and end
a = vals(12, 7919, 337.0, 1.3).reshape(3, 4)
print(torch.lerp(a, torch.tensor([1.0, -2.0, 0.5, 3.0]), torch.tensor([[0.2], [0.6], [0.9]])).tolist())
print(torch.lerp(a, torch.tensor(2.5), 0.75).tolist())
x = torch.tensor([1.0, 2.0], dtype=torch.float64)
print(torch.lerp(x, torch.tensor([3.0, -1.0], dtype=torch.float64), 0.3).tolist())
try:
    torch.lerp(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64), 0.5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)
except RuntimeError as e:
    print("RuntimeError", e)

import torch
cases = [
    torch.tensor([[1.5, 2.0], [3.25, -4.0]]),
    torch.tensor([0.1, 0.2, 0.3]),
    torch.tensor([1e-5, 1.0]),
    torch.tensor([1e9, 2.0]),
    torch.tensor([float('nan'), 1.0, float('-inf')]),
    torch.arange(30),
    torch.arange(30.0) / 7,
    torch.arange(2000.0),
    torch.arange(24).view(2, 3, 4),
    torch.tensor([True, True]),
    torch.tensor([[True, False], [False, True]]),
    torch.tensor([0.0, -0.0, 1.0]),
    torch.tensor([1.0, 2.0], dtype=torch.float64) / 3,
    torch.tensor([100.0, 0.001]),
    torch.tensor([1, -200, 3], dtype=torch.int32),
    torch.tensor([3.14159], dtype=torch.float16),
    torch.zeros(0),
    torch.tensor(2.0),
    torch.tensor(7),
    torch.tensor([12345.678, 0.5]),
    torch.arange(1100).view(100, 11),
]
for t in cases:
    a = t.numpy()
    print(a)
    print(repr(a))

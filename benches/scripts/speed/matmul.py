# float32 matmul of two SIZE x SIZE matrices (the driver turns the time into GFLOP/s).
import torch

torch.manual_seed(0)
a = torch.randn(SIZE, SIZE)
b = torch.randn(SIZE, SIZE)


def step():
    a @ b

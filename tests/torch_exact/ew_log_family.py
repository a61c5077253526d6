import torch

x = torch.tensor([0.001, 0.1, 0.5, 1.0, 1.5, 2.0, 10.0, 1234.5])
print(torch.log(x).tolist())
print(torch.log2(x).tolist())
print(torch.log10(x).tolist())
print(torch.log1p(x).tolist())
print(torch.expm1(x[:5]).tolist())
big = torch.arange(1, 101, dtype=torch.float32) * 0.37
print(torch.log(big).tolist())

import torch

x = torch.tensor([-2.0, -0.7, -0.1, 0.0, 0.3, 0.9, 1.8, 3.0])
print(torch.erf(x).tolist())
print(torch.erfc(x).tolist())
print(torch.erfinv(torch.tensor([-0.9, -0.5, 0.0, 0.3, 0.99])).tolist())
print(torch.special.expit(x).tolist())
print(torch.special.logit(torch.tensor([0.1, 0.5, 0.9])).tolist())

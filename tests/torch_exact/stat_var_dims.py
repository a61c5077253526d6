import torch

x = (torch.arange(5 * 9, dtype=torch.float32) * 0.29).cos().reshape(5, 9)
print(x.var(dim=0).tolist())
print(x.std(dim=1).tolist())
print(torch.var_mean(x, dim=1))
print(torch.std_mean(x))
torch.set_printoptions(precision=10)
print(x.var(dim=1, correction=0))

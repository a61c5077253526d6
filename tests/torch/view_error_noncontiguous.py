import torch
x = torch.arange(6).view(2, 3)
print(x.t().reshape(-1))
x.t().view(-1)

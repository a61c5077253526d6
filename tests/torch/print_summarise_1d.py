import torch
print(torch.arange(2000.))
print(torch.arange(1001))
print(torch.zeros(5000))

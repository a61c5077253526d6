import torch

x = torch.ones(2, 2)
print(x.device)
y = x.cuda()
print(y.device)

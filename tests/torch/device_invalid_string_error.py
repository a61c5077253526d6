import torch
print(torch.device('cuda:3'))
torch.device('cuda:x')

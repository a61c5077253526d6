import torch

print(torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1'))
d = torch.device('cuda', 0)
print(d, d.type, d.index)
c = torch.device('cpu')
print(c.index, c.type)
x = torch.tensor([1, 2, 3])
print(x.device)
print(str(x.device) == 'cpu')

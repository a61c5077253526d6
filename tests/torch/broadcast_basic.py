import torch
col = torch.tensor([[1], [2], [3]])
row = torch.tensor([[10, 20, 30, 40]])
s = col + row
print(s.shape)
print(s)
print(torch.ones(2, 3) * torch.tensor([1., 2., 3.]))
print((torch.zeros(4, 1, 3) + torch.zeros(5, 1)).shape)
print(torch.broadcast_shapes((3, 1), (1, 4)))

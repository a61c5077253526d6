import torch
x = torch.tensor([1., 2., 3.])
print(x.unsqueeze(0), x.unsqueeze(0).shape)
print(x.unsqueeze(1).shape, x.unsqueeze(-1).shape)
y = torch.zeros(1, 3, 1)
print(y.squeeze().shape, y.squeeze(0).shape, y.squeeze(-1).shape)
print(y.squeeze(1).shape)
print(x[None, :].shape, x[:, None].shape)

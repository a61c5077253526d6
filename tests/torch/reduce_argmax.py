import torch
x = torch.tensor([[1., 5., 2.], [7., 0., 1.]])
print(x.argmax(dim=1).tolist())
print(x.argmax())
print(x.argmin(dim=0))
print(x.argmax(dim=0, keepdim=True))
print(torch.argmax(torch.tensor([3, 9, 9, 1])))
print(x.argmax(dim=1).dtype)

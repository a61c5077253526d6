import torch
x = torch.tensor([1.0, 2.0])
y = x.clone()
y[0] = 100
print(x, y)
z = x
z[1] = -1
print(x)
w = torch.tensor([1.0], requires_grad=True)
d = w.detach()
print(d.requires_grad, w.requires_grad)
print(torch.tensor(x.tolist()))

import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
print(y)
y.backward()
print(x.grad)
w = torch.tensor(2.0, requires_grad=True)
loss = (w * 3 - 1) ** 2
loss.backward()
print(w.grad, loss.item())
print(x.requires_grad, y.requires_grad, x.is_leaf, y.is_leaf)

import torch
x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
y = (m.t() * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum()
y.backward()
print(x.grad)
x.grad = None
z = m[1].sum() + m[:, 0].sum() * 10 + m.unsqueeze(0).reshape(3, 2)[2, 1] * 100
z.backward()
print(x.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
e = w.unsqueeze(1).expand(2, 3)
print(e.grad_fn.name())
(e * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(w.grad)
with torch.no_grad():
    v = w.view(2)
    print(v.requires_grad, (w * 2).requires_grad)
print(w.view(2).requires_grad)

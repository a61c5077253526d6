import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([0.5, -1.0], requires_grad=True)
r = m @ v
print(r)
r.sum().backward()
print(m.grad, v.grad)
d = torch.dot(v, v)
d.backward()
print(v.grad)
y2 = x.sum(dim=0, keepdim=True) * 3
y2.backward(torch.tensor([2.0]))
print(x.grad)

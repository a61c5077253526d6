import torch
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for name, f in [("exp", torch.exp), ("log", torch.log), ("tanh", torch.tanh),
                ("sigmoid", torch.sigmoid), ("sqrt", torch.sqrt), ("relu", torch.relu),
                ("neg", lambda t: -t), ("pow3", lambda t: t ** 3), ("div", lambda t: 1 / t),
                ("abs", torch.abs), ("mean", lambda t: t.mean() * t)]:
    x.grad = None
    f(x).sum().backward()
    print(name, x.grad)
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
c = (a * b + a / b - b ** 2) * 2
c.backward()
print(a.grad, b.grad, c)
s = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
p = torch.softmax(s, dim=0)
(p * torch.tensor([1.0, 0.0, 0.0])).sum().backward()
print(s.grad)
s.grad = None
torch.log_softmax(s, dim=0)[2].backward()
print(s.grad)

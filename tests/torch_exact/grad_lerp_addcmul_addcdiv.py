import torch

def vals(n, k, s, off):
    return [((i * k) % 1009) / s - off for i in range(n)]

a = torch.tensor(vals(20, 7919, 337.0, 1.3), requires_grad=True)
b = torch.tensor(vals(20, 104729, 211.0, 2.1), requires_grad=True)
w = torch.tensor(vals(20, 31, 500.0, 0.4), requires_grad=True)
g = torch.tensor(vals(20, 53, 123.0, 3.3))

y = torch.lerp(a, b, 0.3)
print(y.grad_fn.name(), len(y.grad_fn.next_functions))
y.backward(g)
print(a.grad.tolist(), b.grad.tolist())
a.grad = None
b.grad = None
y = torch.lerp(a, b, 0.7)
y.backward(g)
print(a.grad.tolist(), b.grad.tolist())
a.grad = None
b.grad = None
y = torch.lerp(a, b, w)
print(y.grad_fn.name(), len(y.grad_fn.next_functions))
y.backward(g)
print(a.grad.tolist(), b.grad.tolist(), w.grad.tolist())
a.grad = None
b.grad = None
w.grad = None

y = torch.addcmul(a, b, w, value=0.37)
print(y.grad_fn.name())
y.backward(g)
print(a.grad.tolist(), b.grad.tolist(), w.grad.tolist())
a.grad = None
b.grad = None
w.grad = None
y = torch.addcdiv(a, b, w, value=-1.3)
print(y.grad_fn.name())
(y * y).sum().backward()
print(a.grad.tolist(), b.grad.tolist(), w.grad.tolist())

# broadcast operands: gradients summed back to their shapes
m = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
r = torch.tensor([0.3, 0.6, 0.9], requires_grad=True)
c = torch.tensor([[2.0], [-3.0]], requires_grad=True)
torch.addcmul(m, r, c, value=0.5).sum().backward()
print(m.grad.tolist(), r.grad.tolist(), c.grad.tolist())
r.grad = None
c.grad = None
torch.addcdiv(m.detach(), r, c, value=0.5).pow(2).sum().backward()
print(r.grad.tolist(), c.grad.tolist())

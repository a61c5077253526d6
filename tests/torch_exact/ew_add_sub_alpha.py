# add/sub with alpha= are one fused multiply-add per element in PyTorch's CPU kernel
# (vec::fmadd(other, alpha, self)): the float32 bits differ from a separate multiply and add.
import torch
g = torch.Generator().manual_seed(7)
a = torch.randn(37, generator=g)
b = torch.randn(37, generator=g)
print(a.add(b, alpha=0.1).tolist())
print(torch.add(a, b, alpha=-0.37).tolist())
print(a.sub(b, alpha=1.7).tolist())
print(torch.sub(a, b, alpha=3).tolist())
c = a.clone()
c.add_(b, alpha=-0.01)
print(c.tolist())
c.sub_(b, alpha=0.3)
print(c.tolist())
print(torch.tensor([1, 2, 3]).add(torch.tensor([4, 5, 6]), alpha=2).tolist())
w = torch.randn(5, generator=g, requires_grad=True)
v = torch.randn(5, generator=g, requires_grad=True)
torch.sub(w, v, alpha=0.7).sum().backward()
print(w.grad.tolist(), v.grad.tolist())
try:
    torch.tensor([1, 2]).add(torch.tensor([1, 2]), alpha=0.5)
except RuntimeError as e:
    print("RuntimeError:", e)
d = a.double()
print(d.add(b.double(), alpha=0.1).tolist()[:3])

import torch

x = torch.linspace(-4.0, 4.0, 40)
print(torch.special.expit(x).tolist())
p = torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0, -0.5, 1.5])
print(torch.special.logit(p, eps=0.25).tolist())
print(torch.special.logit(p, eps=-1.0).tolist())
q = torch.linspace(0.05, 0.95, 19, requires_grad=True)
torch.logit(q).backward(torch.ones(19))
print(q.grad.tolist())
q.grad = None
torch.logit(q, eps=0.2).sum().backward()
print(q.grad.tolist())
print(torch.special.erfinv(torch.linspace(-0.99, 0.99, 45)).tolist())
print(torch.special.log1p(x).tolist())
print(torch.special.expm1(x).tolist())

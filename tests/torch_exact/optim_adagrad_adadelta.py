import torch

w = torch.tensor([1.5, -0.7, 0.3], requires_grad=True)
opt = torch.optim.Adagrad([w], lr=0.1)
for step in range(5):
    opt.zero_grad()
    ((w - 0.25) ** 2).sum().backward()
    opt.step()
print(w.tolist())
v = torch.tensor([1.5, -0.7, 0.3], requires_grad=True)
opt = torch.optim.Adadelta([v], lr=1.0)
for step in range(5):
    opt.zero_grad()
    ((v - 0.25) ** 2).sum().backward()
    opt.step()
print(v.tolist())

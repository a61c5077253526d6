import torch

x = torch.linspace(-2, 2, 50)
y = 1.7 * x + 0.4 + 0.3 * torch.cos(3 * x)
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, repr(loss.item()), repr(w.item()), repr(b.item()))

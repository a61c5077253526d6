import torch

# an elementwise model (no matrix product, so no BLAS order): y = a * x**2 + b * x + c, Adam
xs = [i / 25.0 - 1.0 for i in range(51)]
x = torch.tensor(xs)
y = torch.tensor([0.7 * v * v - 1.3 * v + 0.25 + 0.05 * ((i * 37) % 11 - 5) for i, v in enumerate(xs)])
a = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
c = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([a, b, c], lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for step in range(30):
    opt.zero_grad()
    pred = a * x ** 2 + b * x + c
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(step, repr(loss.item()), repr(a.item()), repr(b.item()), repr(c.item()))
print(sched.get_last_lr())

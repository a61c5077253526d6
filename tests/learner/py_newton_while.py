import torch

x = torch.tensor(3.0, requires_grad=True)
for it in range(20):
    f = x ** 3 - 2 * x - 5
    (grad,) = torch.autograd.grad(f, x)
    with torch.no_grad():
        step = f / grad
        x -= step
    if abs(step.item()) < 1e-6:
        break
print(it, round(x.item(), 5))
print(f"{(x ** 3 - 2 * x - 5).item():.3e}")

# torch.frac (x - trunc(x)) end to end: function and method, every float dtype, the
# gradient (FracBackward0 passes grad through), and the refusal of integer inputs.
import torch

x = torch.tensor([-3.75, -1.0, -0.5, -0.0, 0.0, 0.1, 2.5, 1e10 + 0.5, 123456.7,
                  float('inf'), float('-inf'), float('nan')])
print(torch.frac(x).tolist())
print(x.frac().tolist())
print(torch.frac(x.double()).tolist())
print(torch.frac(torch.linspace(-5, 5, 37)).tolist())
print(torch.frac(x.half()))
print(torch.frac(x.bfloat16()))
print(torch.frac(torch.tensor(7.25)))

w = torch.tensor([1.5, -2.25, 0.75], requires_grad=True)
y = torch.frac(w * 3)
print(y, y.grad_fn.name())
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad.tolist())

for bad in (torch.tensor([1, 2]), torch.tensor([True])):
    try:
        torch.frac(bad)
    except Exception as e:
        print(type(e).__name__, e)

# torch.deg2rad / torch.rad2deg: values to the last bit on 100000 random inputs per float
# dtype (a weighted float64 checksum, so one changed bit shows), integer inputs, the method
# form, the gradient and its graph under create_graph=True.
import torch

torch.manual_seed(0)
n = 100000
w = torch.arange(n, dtype=torch.float64) / n
for name in ["deg2rad", "rad2deg"]:
    f = getattr(torch, name)
    for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
        scale = 1000.0 if dt.itemsize >= 4 else 50.0  # float16 stays finite after rad2deg
        x = (torch.randn(n) * scale).to(dt)
        y = f(x)
        print(name, y.dtype, y[:4].tolist(), (y.double() * w).sum().item())
    print(f(torch.arange(-3, 4)))
    print(getattr(torch.tensor([0.0, 90.0, 180.0]), name)())
    x = torch.randn(1000, requires_grad=True)
    y = f(x)
    print(y.grad_fn.name())
    g = torch.randn(1000)
    y.backward(g)
    print(x.grad[:4].tolist(), (x.grad.double() * w[:1000]).sum().item())
    x = torch.randn(5, requires_grad=True)
    (gx,) = torch.autograd.grad(f(x * x).sum(), x, create_graph=True)
    print(gx.grad_fn.name(), gx.tolist())
    gx.sum().backward()
    print(x.grad.tolist())

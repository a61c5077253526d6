import torch
import torch.nn as nn

torch.set_printoptions(precision=10)
base = torch.linspace(-4.0, 4.0, 36).reshape(6, 6)
x = base.t()  # a strided view: every kernel takes its scalar path
for m in [nn.SiLU(), nn.Softplus(beta=1.5, threshold=3.0), nn.ELU(alpha=0.5), nn.SELU(), nn.CELU(0.8),
          nn.LeakyReLU(0.2), nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.Hardtanh(-1.5, 2.5), nn.ReLU6(),
          nn.LogSigmoid(), nn.Softsign(), nn.Tanhshrink()]:
    xi = x.clone().requires_grad_(True)
    y = m(xi.t().t())
    y.sum().backward()
    print(m, type(y.grad_fn).__name__)
    print(y[1:3, 2:5])
    print(xi.grad[4])

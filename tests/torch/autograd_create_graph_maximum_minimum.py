# torch.maximum / torch.minimum under create_graph=True: the gradient (ties split in half)
# keeps a graph (MaskedFillBackward0, as derivatives.yaml's masked_fill_), and it can be
# differentiated again; broadcasting operands are summed back to their shapes.
import torch

torch.manual_seed(0)
for f in [torch.maximum, torch.minimum]:
    a = torch.tensor([1.0, 2.0, 3.0, -1.5], requires_grad=True)
    b = torch.tensor([3.0, 2.0, 1.0, -1.5], requires_grad=True)
    ga, gb = torch.autograd.grad(f(a, b).sum(), (a, b), create_graph=True)
    print(ga, gb)
    ga, gb = torch.autograd.grad((f(a, b) * a).sum(), (a, b), create_graph=True)
    print(ga, gb)
    (ga * gb + ga).sum().backward()
    print(a.grad, b.grad)
    x = torch.randn(3, 4, requires_grad=True)
    y = torch.randn(4, requires_grad=True)
    gx, gy = torch.autograd.grad((f(x, y) ** 2).sum(), (x, y), create_graph=True)
    print(gx, gy)
    (gx.sum() + gy.sum()).backward()
    print(x.grad, y.grad)

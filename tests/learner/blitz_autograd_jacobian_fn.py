import torch


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.tensor([0.0, 1.0]), torch.tensor([2.0, -1.0]))
print(torch.autograd.functional.jacobian(exp_adder, inputs))

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x)
print(g)

# Gradients flow through masked_fill (attention masks): zero where the mask holds.
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
mask = torch.tensor([[True, False, False], [False, False, True]])
y = x.masked_fill(mask, float('-inf')).softmax(-1)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
(y * torch.arange(3.)).sum().backward()
print(x.grad)
x.grad = None
z = (x * 2).masked_fill(torch.tensor([True, False, True]), 0.5)
z.sum().backward()
print(z, x.grad)

import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
print(w.grad)
w -= 0.1 * w.grad
print(w)

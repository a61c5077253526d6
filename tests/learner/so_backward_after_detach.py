import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).detach()
print(y.requires_grad)
loss = y.sum()
print(loss)
loss.backward()

import torch

torch.manual_seed(0)
weights = torch.randn(4, 3) / 2
weights.requires_grad_()
bias = torch.zeros(3, requires_grad=True)
xb = torch.randn(5, 4)
yb = torch.tensor([0, 1, 2, 0, 1])
out = xb @ weights + bias
loss = torch.nn.functional.cross_entropy(out, yb)
loss.backward()
print(loss)
print(weights.grad)
print(bias.grad)
with torch.no_grad():
    weights -= weights.grad * 0.5
    bias -= bias.grad * 0.5
print(weights)
print(bias)

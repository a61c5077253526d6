import torch
import torch.nn.functional as F

z = torch.linspace(-3.0, 3.0, 7, requires_grad=True)
y = torch.tensor([0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0])
loss = F.binary_cross_entropy_with_logits(z, y)
loss.backward()
print(repr(loss.item()))
print(z.grad.tolist())
z.grad = None
loss2 = F.binary_cross_entropy(torch.sigmoid(z), y)
loss2.backward()
print(repr(loss2.item()))
print(z.grad.tolist())

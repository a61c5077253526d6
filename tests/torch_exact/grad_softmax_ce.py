import torch
import torch.nn.functional as F

logits = torch.linspace(-1.0, 1.5, 12).reshape(3, 4).requires_grad_()
target = torch.tensor([3, 0, 2])
loss = F.cross_entropy(logits, target)
loss.backward()
print(repr(loss.item()))
print(logits.grad.tolist())
print((torch.softmax(logits, 1) - F.one_hot(target, 4)).div(3).tolist())

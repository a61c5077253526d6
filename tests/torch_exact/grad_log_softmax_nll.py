import torch
import torch.nn.functional as F

x = (torch.arange(15, dtype=torch.float32) * 0.7).cos().reshape(5, 3).requires_grad_()
t = torch.tensor([2, 1, 0, 0, 1])
loss = F.nll_loss(F.log_softmax(x, dim=1), t)
loss.backward()
print(repr(loss.item()))
print(x.grad.tolist())

import torch
import torch.nn.functional as F

torch.manual_seed(0)
output = F.log_softmax(torch.randn(8, 10), dim=1)
target = torch.randint(0, 10, (8,))
pred = output.argmax(dim=1, keepdim=True)
print(pred.shape, target.shape)
print(target.view_as(pred).shape)
correct = pred.eq(target.view_as(pred)).sum().item()
print(correct, type(correct))
print(F.nll_loss(output, target, reduction='sum').item())
print(F.nll_loss(output, target))

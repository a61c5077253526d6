import torch
import torch.nn.functional as F

z = torch.linspace(-4.0, 4.0, 9)
y = torch.tensor([0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0])
print(repr(F.binary_cross_entropy_with_logits(z, y).item()))
print(F.binary_cross_entropy_with_logits(z, y, reduction='none').tolist())
print(repr(F.binary_cross_entropy(torch.sigmoid(z), y).item()))
print(repr(F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor(3.0)).item()))

import torch
import torch.nn.functional as F

a = torch.linspace(-2.0, 2.0, 11)
b = torch.linspace(1.0, -1.5, 11)
print(repr(F.smooth_l1_loss(a, b).item()))
print(repr(F.smooth_l1_loss(a, b, beta=0.5).item()))
print(repr(F.huber_loss(a, b, delta=0.7).item()))
p = F.log_softmax(a.reshape(1, 11), dim=1)
q = F.softmax(b.reshape(1, 11), dim=1)
print(repr(F.kl_div(p, q, reduction='batchmean').item()))
print(repr(F.cosine_similarity(a, b, dim=0).item()))

# Which float32 summation order the GPU gives: values drawn on the CPU (seeded), reduced on the
# device, printed at full precision.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1_000_003).cuda()
print(x.sum().item(), x.mean().item(), x.abs().max().item())
print(x.std().item(), x.var().item(), x.norm().item())
print(x[:1000].cumsum(0)[-1].item())
m = x[:4096].reshape(64, 64)
print(m.sum(dim=0)[:4].tolist())
print(m.sum(dim=1)[:4].tolist())
print(m.softmax(dim=1)[0, :4].tolist())
print(m.log_softmax(dim=1)[0, :4].tolist())
print((m @ m.t())[0, :4].tolist())
w = x[4096:4096 + 64 * 10].reshape(10, 64)
b = x[5000:5010]
print(F.linear(m, w, b)[0, :4].tolist())
labels = (torch.arange(64) % 10).cuda()
print(F.cross_entropy(F.linear(m, w, b), labels).item())
print((x[:1000] / 3).sum().item(), (x[:1000] * 0.1).exp().sum().item())

import torch

x = (torch.arange(1000, dtype=torch.float32) * 0.013).cos() * 5
p = torch.softmax(x, dim=0)
print(repr(p.sum().item()))
print(p[:20].tolist())
print(torch.log_softmax(x, dim=0)[-10:].tolist())
m = x.reshape(40, 25)
print(torch.softmax(m, dim=1)[7].tolist())

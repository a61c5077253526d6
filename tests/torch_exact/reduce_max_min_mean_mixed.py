import torch

x = (torch.arange(37, dtype=torch.float32) * 1.3).sin() * 10
print(repr(x.max().item()), repr(x.min().item()), x.argmax().item())
print(repr(x.mean().item()), repr(x.abs().mean().item()))
print(repr((x * x).mean().sqrt().item()))
print(x.topk(3).values.tolist())
print(repr(x.median().item()))

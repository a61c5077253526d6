import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 5 * 5, 10)
)


def print_shape(module, inp, out):
    print(f"{module.__class__.__name__:>10}: {tuple(inp[0].shape)} -> {tuple(out.shape)}")


handles = [m.register_forward_hook(print_shape) for m in model]
model(torch.randn(2, 1, 12, 12))
for h in handles:
    h.remove()
print(model(torch.randn(1, 1, 12, 12)).shape)

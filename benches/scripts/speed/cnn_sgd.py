# Small CNN training step: (conv 3x3 - relu - max_pool 2) x2, linear; batch 32x1x28x28, SGD.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 7 * 7, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(32, 1, 28, 28)
y = torch.randint(0, 10, (32,))


def step():
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()

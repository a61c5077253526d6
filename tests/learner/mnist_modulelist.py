import torch
import torch.nn as nn


class DeepMLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList(
            [nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])]
        )

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.relu(layer(x))
        return self.layers[-1](x)


torch.manual_seed(0)
model = DeepMLP([16, 12, 8, 4])
print(model)
print(len(model.layers))
print(model(torch.randn(2, 16)))
print(sum(p.numel() for p in model.parameters()))

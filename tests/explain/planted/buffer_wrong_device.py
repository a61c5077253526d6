# A model that keeps a per-feature scale as a plain attribute: model.to() does not move it.
import torch
import torch.nn as nn

device = torch.device('cuda')


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = torch.ones(4) * 0.5  # entered

    def forward(self, x):
        return self.lin(x) * self.scale  # origin


model = Scaled().to(device)
x = torch.randn(3, 4, device=device)
print(model(x).sum().item())

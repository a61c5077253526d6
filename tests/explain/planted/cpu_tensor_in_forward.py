# A forward() that builds a mask without device=: the mask is on the CPU.
import torch
import torch.nn as nn


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 6)

    def forward(self, x):
        h = self.lin(x)
        mask = torch.ones(x.shape[0], 6)  # entered
        mask[:, 0] = 0
        return h * mask  # origin


model = Masked().cuda()
batch = torch.randn(5, 6).cuda()
out = model(batch)
print(out.shape)

import torch
import torch.nn as nn

# an MLP's products go through BLAS
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + i * 0.1))
x = (torch.arange(32, dtype=torch.float32) * 0.37).sin().reshape(8, 4)
y = torch.tensor([0, 1, 2, 0, 1, 2, 1, 0])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, repr(loss.item()))

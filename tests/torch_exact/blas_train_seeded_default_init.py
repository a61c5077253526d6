import torch
import torch.nn as nn

# default initialisation after manual_seed, then SGD: RNG stream plus BLAS order
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
x = torch.linspace(-1, 1, 40).reshape(8, 5)
y = torch.linspace(0, 1, 8).reshape(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, repr(loss.item()))

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4))
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
x = torch.randn(20, 16)
y = torch.randint(0, 4, (20,))
for i in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(i, loss.item())
print(opt)

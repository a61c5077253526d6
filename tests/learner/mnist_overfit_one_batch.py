import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(100, 32), nn.ReLU(), nn.Linear(32, 10))
x = torch.randn(8, 1, 10, 10)
y = torch.randint(0, 10, (8,))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for step in range(30):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, loss.item())
print((model(x).argmax(1) == y).all().item())

import torch
import torch.nn as nn

# nn.Linear: its products go through BLAS
model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.1, 0.2]]))
    model.bias.fill_(0.0)
x = torch.linspace(-1, 1, 30).reshape(10, 3)
y = x @ torch.tensor([[1.0], [2.0], [-1.0]]) + 0.5
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, repr(loss.item()))
print(model.weight.tolist(), model.bias.tolist())

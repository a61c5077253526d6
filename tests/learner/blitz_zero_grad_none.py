import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(model.weight.grad)
model(torch.ones(1, 2)).sum().backward()
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
model.zero_grad()
print(model.bias.grad)

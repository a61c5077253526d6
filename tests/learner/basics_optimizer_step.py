import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
print("before", model.weight.data, model.bias.data)
loss = nn.MSELoss()(model(x), y)
optimizer.zero_grad()
loss.backward()
print("grad", model.weight.grad, model.bias.grad)
optimizer.step()
print("after", model.weight.data, model.bias.data)
optimizer.zero_grad()
print(model.weight.grad)

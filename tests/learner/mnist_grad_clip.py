import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 3))
x = torch.randn(16, 10) * 10
y = torch.randint(0, 3, (16,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total_norm)
new_norm = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
print(new_norm)
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[2].bias.grad)

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(36, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
x = torch.rand(12, 1, 6, 6)
y = torch.randint(0, 10, (12,))
for epoch in range(4):
    opt.zero_grad()
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(f"{epoch}: {loss.item():.4f}")
print(opt.param_groups[0]["nesterov"], opt.param_groups[0]["weight_decay"])

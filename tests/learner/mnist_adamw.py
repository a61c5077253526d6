import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 3)
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
x = torch.randn(10, 6)
y = torch.randint(0, 3, (10,))
for i in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.6f}")
print(model.bias)
state = opt.state[model.weight]
print(sorted(state.keys()), state["step"])

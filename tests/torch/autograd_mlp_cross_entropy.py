import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view(p.shape) * (i + 1))
x = torch.tensor([[1.0, -1.0, 0.5, 2.0], [0.0, 1.0, -0.5, 1.0], [2.0, 0.5, 1.0, -1.0]])
labels = torch.tensor([1, 0, 1])
loss_fn = nn.CrossEntropyLoss()
loss = loss_fn(model(x), labels)
print(round(loss.item(), 6), loss.grad_fn.name())
loss.backward()
# 4 decimals: the 5th significant digit of a grad near 0 (a difference of two ~0.3 terms)
# depends on the last bit of torch's vectorised float32 exp, which varies across CPUs
for name, p in model.named_parameters():
    print(name, p.grad.shape, [f"{v:.4f}" for v in p.grad.flatten().tolist()])
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(model(x).argmax(dim=1))

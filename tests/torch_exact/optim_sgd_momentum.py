import torch

w = torch.tensor([1.5, -0.7, 0.3], requires_grad=True)
target = torch.tensor([0.2, 0.4, -0.9])
opt = torch.optim.SGD([w], lr=0.05, momentum=0.9)
for step in range(6):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum()
    loss.backward()
    opt.step()
    print(step, repr(loss.item()), w.tolist())
v = torch.tensor([0.5, 0.5], requires_grad=True)
opt2 = torch.optim.SGD([v], lr=0.1, momentum=0.8, nesterov=True, weight_decay=0.01, dampening=0)
for step in range(4):
    opt2.zero_grad()
    (v.exp().sum()).backward()
    opt2.step()
print(v.tolist())

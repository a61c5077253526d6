import torch

w = torch.tensor([1.5, -0.7, 0.3, 2.0], requires_grad=True)
target = torch.tensor([0.2, 0.4, -0.9, 2.0])
opt = torch.optim.AdamW([w], lr=0.01, weight_decay=0.05)
for step in range(6):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum()
    loss.backward()
    opt.step()
    print(step, repr(loss.item()), w.tolist())

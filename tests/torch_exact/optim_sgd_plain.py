import torch

w = torch.tensor([1.5, -0.7, 0.3], requires_grad=True)
target = torch.tensor([0.2, 0.4, -0.9])
opt = torch.optim.SGD([w], lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum() + (w ** 4).sum() * 0.01
    loss.backward()
    opt.step()
    print(step, repr(loss.item()), w.tolist())

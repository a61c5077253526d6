import torch

w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    loss = (w * 3).sum()
    loss.backward()
    print(step, w.grad)
    opt.step()
print(w)

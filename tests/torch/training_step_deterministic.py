import torch
import torch.nn.functional as F
w = torch.tensor([[0.5, -0.5], [0.25, 0.75]], requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
t = torch.tensor([0, 1])
for step in range(3):
    loss = F.cross_entropy(x @ w, t)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    print(step, round(loss.item(), 6))
print(w.detach())

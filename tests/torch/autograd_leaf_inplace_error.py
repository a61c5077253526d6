import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w -= 0.5
print(w)
v = w * 1
v += 1
print(v)
w += 1

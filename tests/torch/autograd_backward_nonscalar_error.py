import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
print(y.shape)
y.backward()

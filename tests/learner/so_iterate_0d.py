import torch

loss = torch.tensor(0.25)
print(loss.dim(), loss.shape)
for v in torch.tensor([1, 2]):
    print(v)
for v in loss:
    print(v)

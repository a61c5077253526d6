import torch

t = torch.tensor([[1.5, 2.0], [3.25, -4.0]])
print(t.tolist())
print(t[0, 1].item())
print(torch.tensor([1, 2, 3]).tolist())
print(type(t.tolist()[0][0]))
print(t.sum().item())
print(torch.tensor([True]).item())
print(torch.tensor(0.1).item())

import torch
print(torch.tensor([float("nan"), 1.0]))
print(torch.tensor([float("inf"), -float("inf"), 2.5]))
print(torch.tensor([1.0]) / 0)
print((torch.tensor([1.0]) / 0).item())
print(torch.tensor([0.0]) / 0)
print(torch.tensor([-0.0, 0.0]))

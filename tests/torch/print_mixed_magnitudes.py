import torch
print(torch.tensor([-1.5, 2.0, 0.0]))
print(torch.tensor([1.0, 10.0, 100.0]))
print(torch.tensor([0.001, 0.01, 0.1]))
print(torch.tensor([1.0, 2.0]) / 3)
print(torch.tensor([[1e-3, 1.0], [10.0, 1e3]]))
print(torch.tensor([99999.0, 1.0]))

import torch
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x.gather(1, torch.tensor([[0], [2]])))
x.gather(1, torch.tensor([[5], [0]]))

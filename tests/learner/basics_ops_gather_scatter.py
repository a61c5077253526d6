import torch

x = torch.tensor([[1, 2, 3], [4, 5, 6]])
idx = torch.tensor([[0, 2], [1, 0]])
print(torch.gather(x, 1, idx))
z = torch.zeros(2, 4, dtype=torch.long)
print(z.scatter(1, torch.tensor([[1], [3]]), 9))
src = torch.ones(5)
print(torch.zeros(3).scatter_add(0, torch.tensor([0, 1, 0, 2, 0]), src))
print(torch.zeros(5).index_add(0, torch.tensor([0, 4]), torch.tensor([1.0, 2.0])))
print(x.index_select(1, torch.tensor([2, 0])))

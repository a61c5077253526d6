import torch
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x.index_select(1, torch.tensor([0, 2])))
print(torch.index_select(x, 0, torch.tensor([1, 1])))
print(x.gather(1, torch.tensor([[2], [0]])))
print(torch.gather(x, 0, torch.tensor([[1, 0, 1]])))
logp = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
print(logp.gather(1, torch.tensor([1, 0]).unsqueeze(1)).squeeze(1))

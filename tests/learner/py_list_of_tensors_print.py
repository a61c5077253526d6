import torch

squares = [t ** 2 for t in torch.arange(4)]
print(squares)
pairs = [(i, torch.tensor([i, i + 1])) for i in range(2)]
print(pairs)
nested = [[torch.tensor(1.5)], (torch.tensor(True),)]
print(nested)
print(str(torch.tensor([1, 2])) == repr(torch.tensor([1, 2])))

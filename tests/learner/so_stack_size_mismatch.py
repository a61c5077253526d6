import torch

batch = [torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6]), torch.tensor([7, 8, 9, 10])]
print(torch.stack(batch[:2]))
print(torch.stack(batch))

import torch
print(torch.tensor([True, False, True]))
t = torch.tensor([1, 5, 3])
print(t > 2)
print(torch.tensor([[True], [False]]))
print(torch.tensor(True))

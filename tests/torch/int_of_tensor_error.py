import torch
print(int(torch.tensor([4])))
int(torch.tensor([1, 2]))

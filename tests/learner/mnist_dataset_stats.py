import torch

torch.manual_seed(0)
data = torch.rand(16, 3, 8, 8)
mean = data.mean(dim=[0, 2, 3])
std = data.std(dim=[0, 2, 3])
print(mean)
print(std)
normed = (data - mean.view(1, 3, 1, 1)) / std[None, :, None, None]
print(normed.mean(dim=(0, 2, 3)))
print(normed.std(dim=(0, 2, 3)))

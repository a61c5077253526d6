import torch

torch.manual_seed(0)
img = torch.rand(32, 32, 3)  # HWC from an image library
chw = img.permute(2, 0, 1)
print(chw.shape)
print(img.permute(2, 0).shape)

import torch
import numpy as np

torch.manual_seed(0)
img = torch.rand(3, 4, 4) * 2 - 1   # normalised to [-1, 1]
img = img / 2 + 0.5     # unnormalize
npimg = img.numpy()
print(npimg.shape)
print(np.transpose(npimg, (1, 2, 0)).shape)
print(img.min().item() >= 0, img.max().item() <= 1)
print(np.round(npimg[0], 3))

import numpy as np
import torch

np.random.seed(0)
img = (np.random.rand(4, 5, 3) * 255).astype(np.uint8)
print(img.shape, img.dtype, img.max() <= 255)
t = torch.from_numpy(img).permute(2, 0, 1).float() / 255.0
print(t.shape, t.dtype)
back = (t.permute(1, 2, 0).numpy() * 255).round().astype(np.uint8)
print(np.array_equal(back, img))
print(img[0, 0], t[:, 0, 0])

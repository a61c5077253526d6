import numpy as np
import torch
import torch.nn.functional as F

np.random.seed(3)
pred = np.random.rand(6).astype(np.float32)
target = np.random.rand(6).astype(np.float32)
mse_np = np.mean((pred - target) ** 2)
mse_t = F.mse_loss(torch.from_numpy(pred), torch.from_numpy(target))
print(mse_np, type(mse_np).__name__)
print(mse_t)
print(np.isclose(mse_np, mse_t.item()))

import numpy as np
import torch

t = torch.tensor([1.0, 2.0])
print(t * np.float64(3.0))
print((t * np.float64(3.0)).dtype)
print(t + np.int64(1))
s = np.float32(2.5)
print(torch.tensor(s), torch.tensor(s).dtype)
print(torch.tensor(np.int64(5)).dtype)
print(torch.tensor([np.float32(1.5), np.float32(2.5)]).dtype)

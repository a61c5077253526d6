import numpy as np
import torch

for dt in [np.float32, np.float64, np.int64, np.int32, np.uint8, np.bool_, np.float16]:
    arr = np.zeros(2, dtype=dt)
    print(dt.__name__, torch.from_numpy(arr).dtype)
t = torch.ones(2, dtype=torch.int16)
print(t.numpy().dtype)
print(torch.ones(1).numpy().dtype, torch.ones(1, dtype=torch.float64).numpy().dtype)

# expect: TimeoutError: the script ran longer than 10 seconds (line 5)
# One float64 product of 8192 x 8192 matrices (10^12 multiply-adds, minutes on two cores): one
# engine call, stopped inside the kernel, not after it.
import torch
c = torch.ones(8192, 8192, dtype=torch.float64) @ torch.ones(8192, 8192, dtype=torch.float64)

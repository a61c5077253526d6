# callable(): torch's modules, functions, no_grad() and numpy's scalar types are callable;
# a tensor, a dtype, a device, a Size and a generator are not.
import numpy as np
import torch

t = torch.tensor([1.0])
print(callable(t), callable(torch.float32), callable(torch.device('cpu')), callable(t.shape))
print(callable(torch.nn.Linear(1, 1)), callable(torch.tensor), callable(torch.no_grad()))
print(callable(np.float32), callable(np.dtype('float32')), callable(torch.Generator()))

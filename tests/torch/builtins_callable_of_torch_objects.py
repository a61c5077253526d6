# callable(): torch's modules, functions, no_grad(), autograd graph nodes and numpy's scalar
# types are callable; a tensor, a dtype, a device, a Size, a generator and finfo are not.
import numpy as np
import torch

t = torch.tensor([1.0])
print(callable(t), callable(torch.float32), callable(torch.device('cpu')), callable(t.shape))
print(callable(torch.nn.Linear(1, 1)), callable(torch.tensor), callable(torch.no_grad()))
print(callable(np.float32), callable(np.dtype('float32')), callable(torch.Generator()))
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(callable(y.grad_fn), callable(y.grad_fn.next_functions[0][0]), callable(torch.finfo(torch.float32)))

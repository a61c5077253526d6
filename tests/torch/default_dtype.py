# torch.set_default_dtype changes what a Python float becomes, factory functions' dtype and
# whether printing names the dtype.
import torch

print(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.tensor([1.5]), torch.tensor([1.5]).dtype)
print((torch.tensor([1, 2]) * 1.5).dtype, torch.arange(3.).dtype, torch.zeros(2), torch.ones(1).dtype)
print(torch.linspace(0, 1, 3), torch.full((1,), 2.0), torch.tensor(2.5).dtype)
print(torch.tensor([1.0], dtype=torch.float32), torch.empty(0))
torch.manual_seed(0)
print(torch.nn.Linear(2, 1).weight.dtype, torch.randn(2).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float64))
for bad in [torch.int64, "float64", None]:
    try:
        torch.set_default_dtype(bad)
    except TypeError as e:
        print(type(e).__name__, e)

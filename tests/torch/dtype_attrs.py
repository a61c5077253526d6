import torch
x = torch.randn(10)
print(x.dtype, x.element_size(), x.nbytes)
print(torch.float32, torch.float64, torch.int64, torch.bool)
print(torch.float == torch.float32, torch.long == torch.int64, torch.double)
print(x.is_floating_point(), torch.tensor([1]).is_floating_point())
print(torch.get_default_dtype())
print(torch.zeros(3, dtype=torch.int32).element_size(), torch.zeros(3, dtype=torch.float64).nbytes)
print(torch.tensor([1.0], dtype=torch.float16).element_size())

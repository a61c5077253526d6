import torch

a = torch.arange(6)
b = a.view(2, 3)
c = a.clone()
print(a.data_ptr() == b.data_ptr())
print(a.data_ptr() == c.data_ptr())
print(a[2:].data_ptr() - a.data_ptr() == 2 * a.element_size())
print(a.element_size(), torch.zeros(1, dtype=torch.float64).element_size())
print(a.untyped_storage().nbytes())
print(b.is_contiguous(), b.t().is_contiguous())

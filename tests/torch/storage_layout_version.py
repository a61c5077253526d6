# tensor.storage() (TypedStorage), tensor.layout, torch.version.
import torch

x = torch.arange(3.)
s = x.storage()
print(s[1], s.size(), s.dtype, s.device, len(s), s.tolist(), s.element_size(), s.nbytes())
s[0] = 7
print(x)
print(s)
print(torch.arange(6)[2:].storage().size())
print(x.layout, torch.strided, type(torch.strided))
print(torch.__version__, torch.version.cuda, torch.version.debug, torch.version.hip)

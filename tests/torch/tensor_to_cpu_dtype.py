import torch
x = torch.tensor([1.5, 2.5, 3.5])
w = torch.tensor([0.0, 0.0, 0.0])
print(x.to('cpu') is x, x.cpu() is x, x.to(w.device) is x)
print(x.to(torch.float64), x.to('cpu', torch.int32))
print(x.to(dtype=torch.int64).tolist(), x.is_pinned())
print(x.device, x.device.type, x.device.index, w.device == x.device)
y = x + w
print(y.device.type == 'cpu' and y.tolist() == [1.5, 2.5, 3.5])
print(torch.zeros_like(x, dtype=torch.int64), torch.ones_like(x).dtype)
print(torch.device('cpu'), repr(torch.device('cpu')), torch.device('cpu', 0) if False else 'skip')

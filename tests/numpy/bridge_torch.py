import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
t[0, 0] = 10
a[1, 2] = -1
print(t)
print(a)
tt = torch.from_numpy(a.T)
print(tt.shape, tt.stride(), tt.is_contiguous())
s = torch.from_numpy(a[:, 1])
print(s, s.stride())
u = torch.ones(2, 3, dtype=torch.float64)
n = u.numpy()
n[:, 0] = 7
print(u)
u.add_(1)
print(n, n.dtype)
v = torch.tensor(np.array([[1, 2], [3, 4]], dtype=np.int32))
print(v, v.dtype)
w = torch.as_tensor(np.array([1.5, 2.5]))
print(w.dtype)
print(np.array(torch.tensor([1.0, 2.0])), np.asarray(torch.arange(3)).dtype)
x = torch.randn(3, requires_grad=True)
try:
    x.numpy()
except RuntimeError as e:
    print(e)
print(x.detach().numpy().shape)
print(torch.tensor(np.float64(2.5)).dtype, torch.tensor([np.int64(1), np.int64(2)]).dtype)
print(torch.zeros(3) + torch.from_numpy(np.ones(3, dtype=np.float32)))
print(type(t.numpy()).__name__, t.numpy().dtype == np.float32)
i = torch.tensor([[1, 2], [3, 4]])
print(i.numpy().sum(axis=0), i.numpy().T)
b = torch.tensor([True, False]).numpy()
print(b, b.dtype)
h = torch.tensor([1.5], dtype=torch.float16).numpy()
print(h, h.dtype)
print(float(np.float32(2.5)), int(np.int64(7)), round(float(np.float64(2.675)), 2))
print(f"{np.float64(3.14159):.2f} {np.int64(42):5d} {np.float32(0.5)}")
print([np.float64(1.5), np.int64(2)], {"k": np.float32(0.25)})
print(np.float64(3.0) == 3, np.int64(3) < 4.5, bool(np.float64(0.0)))
print(torch.from_numpy(np.array([1, 2, 3])).dtype)

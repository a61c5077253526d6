import torch

def vals(n, k, s, off):
    return torch.tensor([((i * k) % 1009) / s - off for i in range(n)])

for n in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 100]:
    s = vals(n, 7919, 337.0, 1.3)
    t1 = vals(n, 104729, 211.0, 2.1)
    t2 = vals(n, 31, 97.0, 4.9)
    for v in [1, 0.1, -0.01, 0.999, 1e-3]:
        print(n, v, torch.addcmul(s, t1, t2, value=v).tolist())
        print(n, v, torch.addcdiv(s, t1, t2, value=v).tolist())
    print(n, s.addcmul(t1, t1).tolist(), s.addcdiv(t1, t2).tolist())
    c = s.clone()
    c.mul_(0.9).addcmul_(t1, t2, value=0.1)
    print(n, c.tolist())
    c.addcdiv_(t1, t2.abs() + 0.5, value=-0.003)
    print(n, c.tolist())
# broadcasting, a 2-d input, float64
m = vals(12, 7919, 337.0, 1.3).reshape(3, 4)
print(torch.addcmul(m, torch.tensor([0.5, 1.5, -2.0, 3.0]), torch.tensor([[0.1], [0.2], [0.3]]), value=0.7).tolist())
print(torch.addcdiv(m, torch.tensor([[1.0], [2.0], [3.0]]), torch.tensor([3.0, 7.0, 9.0, 11.0]), value=2).tolist())
d = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
print(torch.addcmul(d, d, d, value=0.3).tolist(), torch.addcdiv(d, d, d + 1, value=0.3).tolist())
print(torch.addcmul(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5, 6]), value=2).tolist())
try:
    torch.addcdiv(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5, 6]))
except RuntimeError as e:
    print("RuntimeError", e)

import torch

data = torch.arange(20)
if (n := len(data)) > 10:
    print(f"long tensor: {n}")
print(data[::5], data[-3:], data[5:2])
chunks = [data[i:i + 6] for i in range(0, n, 6)]
print([c.tolist() for c in chunks])
print(data[torch.tensor([True, False] * 10)])

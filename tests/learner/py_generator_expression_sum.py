import torch

xs = [torch.tensor(float(i)) for i in range(5)]
print(sum(x * x for x in xs))
print(sum(xs) / len(xs))
print(max(xs), min(xs))
print(any(x > 3 for x in xs), all(x >= 0 for x in xs))
total = sum(torch.ones(2) for _ in range(3))
print(total)

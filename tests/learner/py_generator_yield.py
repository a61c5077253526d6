import torch


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "done"


g = countdown(3)
print(next(g), next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("stopped:", e.value)


def batches(t, size):
    for start in range(0, len(t), size):
        yield t[start:start + size]


print(list(batches(torch.arange(7), 3)))

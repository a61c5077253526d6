import torch


def make_counter():
    count = 0

    def step(loss):
        nonlocal count
        count += 1
        return f"step {count}: {loss.item():.2f}"
    return step


step = make_counter()
for v in [0.9, 0.5, 0.25]:
    print(step(torch.tensor(v)))

best = None


def update(v):
    global best
    if best is None or v < best:
        best = v


for v in [3.0, 1.0, 2.0]:
    update(v)
print(best)

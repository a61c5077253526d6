import torch

torch.manual_seed(0)
x_train = torch.randn(10, 3)
y_train = torch.arange(10)


def batches(x, y, bs):
    for i in range(0, len(x), bs):
        yield x[i:i + bs], y[i:i + bs]


gen = batches(x_train, y_train, 4)
print(type(gen).__name__)
for xb, yb in gen:
    print(xb.shape, yb.tolist())
print(list(batches(x_train, y_train, 5))[1][1])
print(sum(len(yb) for _, yb in batches(x_train, y_train, 3)))

import torch


class Accumulator:
    """在n个变量上累加"""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


torch.manual_seed(0)
metric = Accumulator(2)
for _ in range(3):
    y_hat = torch.rand(5, 3)
    y = torch.randint(0, 3, (5,))
    metric.add(accuracy(y_hat, y), y.numel())
print(metric[0], metric[1], metric[0] / metric[1])
metric.reset()
print(metric.data)

import torch
from torch.utils.data import TensorDataset, DataLoader


def preprocess(x, y):
    return x.view(-1, 1, 4, 4), y


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


ds = TensorDataset(torch.arange(80, dtype=torch.float32).view(5, 16), torch.arange(5))
train_dl = WrappedDataLoader(DataLoader(ds, batch_size=2), preprocess)
print(len(train_dl))
for xb, yb in train_dl:
    print(xb.shape, yb)
print(next(iter(train_dl))[0][0, 0])

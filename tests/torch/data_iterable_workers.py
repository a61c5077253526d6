import torch
from torch.utils.data import IterableDataset, DataLoader, get_worker_info, ChainDataset
class Count(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))
print([b.tolist() for b in DataLoader(Count(7), batch_size=3)])
print([b.tolist() for b in DataLoader(Count(7), batch_size=3, drop_last=True)])
print([b.tolist() for b in DataLoader(Count(7), batch_size=2, num_workers=2)])
class Plain(IterableDataset):
    def __iter__(self):
        yield from range(4)
print([b.tolist() for b in DataLoader(Plain(), batch_size=2, num_workers=2)])
print([b.tolist() for b in DataLoader(ChainDataset([Plain(), Count(3)]), batch_size=3)])
print(list(DataLoader(Plain(), batch_size=None)))
print(get_worker_info())
try:
    DataLoader(Plain(), shuffle=True)
except ValueError as e:
    print(e)

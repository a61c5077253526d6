import itertools
import torch
from torch.utils.data import DataLoader, TensorDataset

for lr, bs in itertools.product([0.1, 0.01], [16, 32]):
    print(f"lr={lr} bs={bs}")
loader = DataLoader(TensorDataset(torch.arange(10)), batch_size=3)
for (batch,) in itertools.islice(loader, 2):
    print(batch)
print(list(itertools.chain([1, 2], torch.tensor([3, 4]).tolist())))
print(list(itertools.accumulate([1, 2, 3, 4])))

import torch
from torch.utils.data import Dataset, DataLoader


class Sentences(Dataset):
    def __init__(self):
        self.data = [[1, 2, 3], [4, 5], [6, 7, 8, 9]]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return torch.tensor(self.data[i])


ds = Sentences()
print([ds[i].shape for i in range(len(ds))])
for batch in DataLoader(ds, batch_size=1):
    print(batch)
for batch in DataLoader(ds, batch_size=2):
    print(batch)

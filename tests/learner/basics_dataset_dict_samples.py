import torch
from torch.utils.data import Dataset, DataLoader


class DictDataset(Dataset):
    def __init__(self):
        self.x = torch.arange(12, dtype=torch.float32).view(6, 2)
        self.y = torch.tensor([0, 1, 1, 0, 1, 0])

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        return {"features": self.x[i], "label": self.y[i]}


loader = DataLoader(DictDataset(), batch_size=4)
for batch in loader:
    print(sorted(batch.keys()))
    print(batch["features"])
    print(batch["label"])

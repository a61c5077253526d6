import torch
from torch.utils.data import Dataset, DataLoader


class FakeMNIST(Dataset):
    def __init__(self, n, train=True, transform=None):
        g = torch.Generator().manual_seed(0 if train else 1)
        self.data = torch.randint(0, 256, (n, 28, 28), dtype=torch.uint8, generator=g)
        self.targets = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img, target = self.data[index], int(self.targets[index])
        img = img.float().unsqueeze(0) / 255.0
        if self.transform is not None:
            img = self.transform(img)
        return img, target


normalize = lambda t: (t - 0.1307) / 0.3081
train = FakeMNIST(20, train=True, transform=normalize)
img, target = train[0]
print(img.shape, target, type(target).__name__)
loader = DataLoader(train, batch_size=8)
for data, targets in loader:
    print(data.shape, targets, targets.dtype)
print(f"{img.mean().item():.4f}")

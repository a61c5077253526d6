import torch
from torch.utils.data import Dataset, DataLoader


class CustomImageDataset(Dataset):
    def __init__(self, n, transform=None):
        self.images = torch.arange(n * 4, dtype=torch.float32).reshape(n, 1, 2, 2)
        self.labels = torch.arange(n) % 3
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = self.labels[idx]
        if self.transform:
            image = self.transform(image)
        return image, label


ds = CustomImageDataset(6, transform=lambda img: img / 10)
print(len(ds))
img, label = ds[4]
print(img, label)
dl = DataLoader(ds, batch_size=2, shuffle=False)
for i, (images, labels) in enumerate(dl):
    print(i, images.shape, labels.tolist())

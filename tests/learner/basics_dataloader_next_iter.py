import torch
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
images = torch.rand(16, 1, 28, 28)
labels = torch.randint(0, 10, (16,))
train_dataloader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)

train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
print(img.shape)
print(f"Label: {label}")

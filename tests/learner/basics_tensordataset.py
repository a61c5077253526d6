import torch
from torch.utils.data import TensorDataset, DataLoader

X = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.tensor([0, 1, 0, 1, 1, 0, 0, 1, 1, 0])
dataset = TensorDataset(X, y)
print(len(dataset))
print(dataset[0])
print(dataset[3][1])

loader = DataLoader(dataset, batch_size=4)
for xb, yb in loader:
    print(xb.shape, yb)
print(len(loader))

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
valid_ds = TensorDataset(torch.randn(25, 5), torch.randint(0, 3, (25,)))
valid_dl = DataLoader(valid_ds, batch_size=10)
model = torch.nn.Linear(5, 3)
with torch.no_grad():
    valid_loss = sum(F.cross_entropy(model(xb), yb) for xb, yb in valid_dl)
print(valid_loss)
print(valid_loss / len(valid_dl))
print(len(valid_dl), len(valid_ds))
sizes = [len(xb) for xb, _ in valid_dl]
print(sizes)

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.randn(96, 20)
w = torch.randn(20, 4)
y = (x @ w).argmax(1)
train_ds = TensorDataset(x[:64], y[:64])
test_ds = TensorDataset(x[64:], y[64:])
train_loader = DataLoader(train_ds, batch_size=16, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=32)
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item()
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in test_loader:
            _, predicted = model(xb).max(1)
            total += yb.size(0)
            correct += predicted.eq(yb).sum().item()
    print(f"Epoch {epoch + 1}: loss={running / len(train_loader):.4f} acc={100. * correct / total:.2f}%")

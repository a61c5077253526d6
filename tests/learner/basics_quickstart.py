import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
train_data = TensorDataset(torch.rand(48, 1, 6, 6), torch.randint(0, 4, (48,)))
test_data = TensorDataset(torch.rand(16, 1, 6, 6), torch.randint(0, 4, (16,)))
batch_size = 16
train_dataloader = DataLoader(train_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)

for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

device = "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(36, 24), nn.ReLU(), nn.Linear(24, 4))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


model = NeuralNetwork().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
for t in range(2):
    for batch, (X, y) in enumerate(train_dataloader):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"Epoch {t+1} loss: {loss.item():>7f}")
model.eval()
correct = 0
with torch.no_grad():
    for X, y in test_dataloader:
        correct += (model(X).argmax(1) == y).type(torch.float).sum().item()
print(f"Accuracy: {(100*correct/len(test_data)):>0.1f}%")

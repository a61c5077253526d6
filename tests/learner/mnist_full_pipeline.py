import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.fc1 = nn.Linear(4 * 5 * 5, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)


def main():
    torch.manual_seed(1)
    device = torch.device("cpu")
    train_ds = TensorDataset(torch.randn(32, 1, 12, 12), torch.randint(0, 10, (32,)))
    test_ds = TensorDataset(torch.randn(16, 1, 12, 12), torch.randint(0, 10, (16,)))
    train_loader = DataLoader(train_ds, batch_size=8, shuffle=True)
    test_loader = DataLoader(test_ds, batch_size=16)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(1, 3):
        model.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            data, target = next(iter(test_loader))
            output = model(data)
            test_loss = F.nll_loss(output, target, reduction="sum").item() / len(test_ds)
            correct = output.argmax(dim=1).eq(target).sum().item()
        print(f"epoch {epoch}: train loss {loss.item():.4f} test loss {test_loss:.4f} acc {correct}/{len(test_ds)}")
        scheduler.step()


if __name__ == '__main__':
    main()

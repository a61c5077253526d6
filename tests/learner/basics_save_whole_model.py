import torch
import torch.nn as nn


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


torch.manual_seed(0)
model = TinyNet()
torch.save(model, "model.pth")
loaded = torch.load("model.pth", weights_only=False)
print(type(loaded).__name__)
print(loaded)
x = torch.tensor([[1.0, 2.0, 3.0]])
print(loaded(x))
print(torch.allclose(model(x), loaded(x)))

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
torch.save(model.state_dict(), "model_weights.pth")

model2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.randn(3, 4)
print(torch.equal(model(x), model2(x)))
model2.load_state_dict(torch.load("model_weights.pth", weights_only=True))
model2.eval()
print(torch.equal(model(x), model2(x)))
print(model2(x))

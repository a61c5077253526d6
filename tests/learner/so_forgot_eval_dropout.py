import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.Linear(4, 1))
x = torch.ones(1, 4)
with torch.no_grad():
    print(model(x), model(x))
model.eval()
with torch.no_grad():
    print(model(x), model(x))

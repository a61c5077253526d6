import torch
import torch.nn as nn

device = torch.device("cpu")
print(device, device.type)
torch.manual_seed(0)
model = nn.Linear(4, 2).to(device)
print(next(model.parameters()).device)
data = torch.randn(3, 4).to(device)
target = torch.tensor([0, 1, 1], device=device)
out = model(data)
print(out.device, target.device)
print(out.cpu().detach().numpy().shape)
print(torch.device("cpu") == torch.device("cpu"))

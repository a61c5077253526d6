import torch

x = torch.linspace(-5.0, 5.0, 41)
print(torch.tanh(x).tolist())
print(torch.sigmoid(x).tolist())
s = torch.tensor([-2.0, 0.0, 0.5])
print(torch.tanh(s).tolist(), torch.sigmoid(s).tolist())

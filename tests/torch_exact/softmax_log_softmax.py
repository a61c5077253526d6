import torch
import torch.nn.functional as F

x = torch.linspace(-2.0, 2.0, 24).reshape(3, 8)
print(F.log_softmax(x, dim=1).tolist())
print(F.log_softmax(x, dim=0).tolist())
print(torch.log(F.softmax(x, dim=1)).tolist())

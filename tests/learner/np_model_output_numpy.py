import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 3)
x = torch.randn(5, 4)
out = model(x).detach().numpy()
print(out.shape, out.dtype)
print(np.argmax(out, axis=1))
print(out.round(3))
probs = torch.softmax(torch.from_numpy(out), dim=1).numpy()
print(probs.sum(axis=1).round(5))

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
X = np.random.RandomState(0).rand(4, 3)
inputs = torch.from_numpy(X)
print(inputs.dtype)
model = nn.Linear(3, 1)
print(model(inputs))

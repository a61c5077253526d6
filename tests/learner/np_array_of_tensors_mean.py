import numpy as np
import torch

torch.manual_seed(0)
losses = []
for step in range(4):
    loss = torch.rand(1).sum()
    losses.append(loss.item())
print(losses)
print(np.mean(losses))
print(np.array(losses).std())
print(f"{np.mean(losses):.4f}")

# Positions shifted by one before indexing: the last one is past the end.
import torch

values = torch.arange(10.0, device='cuda')
positions = [0, 3, 7, 9]
idx = torch.tensor(positions, device='cuda') + 1  # entered
picked = values[idx]  # origin
print(picked.tolist())

import torch

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
tensor[2] = torch.arange(4)
print(tensor)
print(tensor[1:3, 2:])

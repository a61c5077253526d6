import torch

rows = [[1, 2, 3], [4, 5, 6]]
print(torch.tensor(rows))
rows.append([7, 8])
print(torch.tensor(rows))

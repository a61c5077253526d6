# Rows numbered from 1 for index_select, as in a spreadsheet.
import torch

table = torch.randn(5, 3, device='cuda')
n = table.shape[0]
rows = torch.arange(1, n + 1, device='cuda')  # entered
picked = table.index_select(0, rows)  # origin
total = picked.sum()
print(total.item())

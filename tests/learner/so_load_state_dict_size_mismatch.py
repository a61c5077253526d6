import torch
import torch.nn as nn

torch.manual_seed(0)
old = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
torch.save(old.state_dict(), "old.pt")
new = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
result = new.load_state_dict(torch.load("old.pt"), strict=False)
print(result)

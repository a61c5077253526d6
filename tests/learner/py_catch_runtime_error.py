import torch

x = torch.arange(6)
try:
    x.view(4)
except RuntimeError as e:
    print("caught:", e)
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print("caught:", e)
try:
    torch.tensor([1, 2])[5]
except IndexError as e:
    print(type(e).__name__, e)
print("still running")

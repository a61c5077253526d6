import torch
x = torch.randn(3)
print(bool(torch.tensor([1.0])))
if x:
    print("never")

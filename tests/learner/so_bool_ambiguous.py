import torch

x = torch.tensor([0.5, -1.0])
if (x > 0).any():
    print("some positive")
if x.sum() < 0:
    print("negative sum")
if x > 0:
    print("positive")

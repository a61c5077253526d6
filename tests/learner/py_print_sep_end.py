import torch

a = torch.tensor([1, 2])
b = torch.tensor(3.5)
print(a, b, sep=" | ")
print("no newline", end="")
print(" ... continued")
print(*a.tolist(), sep=",")
print()
print("tensors:", a, end="\n\n")
print("done")

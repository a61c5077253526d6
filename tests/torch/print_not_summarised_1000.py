import torch
x = torch.arange(1000)
s = str(x)
print(len(s.splitlines()))
print(s.splitlines()[0])
print(s.splitlines()[-1])
print("..." in s)

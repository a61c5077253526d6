import torch

print(torch.device("cpu"))
print(torch.device("cuda:0"))
dev = torch.device("gpu")
print(dev)

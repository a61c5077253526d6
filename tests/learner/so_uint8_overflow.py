import torch

pixels = torch.tensor([250, 100, 5], dtype=torch.uint8)
print(pixels + 10)
print(pixels - 10)
print(pixels * 2)
print(pixels.float() + 10)
print(pixels.sum(), pixels.sum().dtype)
print(torch.tensor([127], dtype=torch.int8) + 1)

import torch

print(torch.tensor([1, 2, 3], dtype=torch.int32))
print(torch.tensor([1.5, 2.25], dtype=torch.float64))
print(torch.tensor([True, False]))
print(torch.tensor([1.0, 2.0], dtype=torch.float16))
print(torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor(3))
print(torch.tensor(3.5))
print(torch.tensor([]))
print(torch.tensor([[1e-5, 1.0], [100.0, 1e5]]))
print(torch.tensor([0.1, 1e10]))

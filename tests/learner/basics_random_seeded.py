import torch

torch.manual_seed(42)
rand_tensor = torch.rand(2, 3)
print(f"Random Tensor: \n {rand_tensor} \n")
print(torch.randn(2, 3))
print(torch.randint(0, 10, (3,)))
print(torch.randint(5, (2, 2)))
torch.manual_seed(42)
print(torch.rand(2, 3))

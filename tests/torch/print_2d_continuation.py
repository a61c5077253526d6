import torch
print(torch.tensor([[1., 2.], [3., 4.]]))
print(torch.tensor([[1, 2, 3], [4, 5, 6]]))
print(torch.tensor([[1.5, -2.0], [0.25, 4.0], [10.0, 0.0]]))
print(torch.tensor([[1, 2]], dtype=torch.int32))
x = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
print(f"x = {x}")

import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
tensor.mul_(2)
tensor.sub_(1)
print(tensor)
x = torch.tensor([1.0, 2.0])
y = x
y.t_()
x.copy_(torch.tensor([9.0, 8.0]))
print(y)

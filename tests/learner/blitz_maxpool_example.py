import torch

torch.manual_seed(0)
my_tensor = torch.rand(1, 6, 6)
print(my_tensor)

maxpool_layer = torch.nn.MaxPool2d(3)
print(maxpool_layer(my_tensor))
avg = torch.nn.AvgPool2d(2)
print(avg(my_tensor))

import torch

torch.manual_seed(0)
my_tensor = torch.rand(1, 4, 4)

dropout = torch.nn.Dropout(p=0.4)
print(dropout(my_tensor))
print(dropout(my_tensor))
dropout.eval()
print(torch.equal(dropout(my_tensor), my_tensor))

import torch

torch.set_printoptions(precision=10)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, -1.0], [10.0, 0.0, -10.0]])
print(torch.softmax(x, dim=1))
print(torch.softmax(x, dim=0))
print(torch.log_softmax(x, dim=1))
print(torch.softmax(torch.tensor([0.1, 0.2]), dim=0))

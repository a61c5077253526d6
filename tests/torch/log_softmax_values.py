import torch
import torch.nn.functional as F
x = torch.tensor([1., 2., 3.])
print(F.log_softmax(x, dim=0).tolist())
print(F.log_softmax(x, dim=0))
print(torch.log_softmax(x, 0).exp())
print(F.log_softmax(torch.tensor([[0., 0.], [1., 3.]]), dim=1))

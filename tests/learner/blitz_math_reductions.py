import torch

torch.manual_seed(0)
d = torch.tensor([[1., 2.], [3., 4.]])
print(torch.max(d))        # returns a single-element tensor
print(torch.max(d).item()) # extracts the value from the returned tensor
print(torch.mean(d))       # average
print(torch.std(d))        # standard deviation
print(torch.prod(d))       # product of all numbers
print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2]))) # filter unique elements
print(torch.std_mean(d))

v1 = torch.tensor([1., 0., 0.])
v2 = torch.tensor([0., 1., 0.])
print(torch.linalg.cross(v2, v1))
m1 = torch.rand(2, 2)
m2 = torch.tensor([[3., 0.], [0., 3.]])
m3 = torch.matmul(m1, m2)
print(m3)

# searchsorted/bucketize, histc, argwhere, can_cast and cdist as PyTorch computes them.
import torch

s = torch.tensor([1., 3, 5, 7])
print(torch.searchsorted(s, torch.tensor([0., 3, 6, 9, float('nan')])))
print(torch.searchsorted(s, torch.tensor([3., 5]), right=True), torch.searchsorted(s, torch.tensor([[3., 4]]), side='right'))
print(torch.bucketize(torch.tensor([3., 6]), s), torch.bucketize(torch.tensor([3, 6]), s, right=True, out_int32=True))
print(torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 6], [1, 7]])))
print(torch.searchsorted(torch.tensor([5., 1, 3]), torch.tensor([2., 4]), sorter=torch.tensor([1, 2, 0])))
try:
    torch.searchsorted(torch.tensor([[1., 2]]), torch.tensor([1.]))
except RuntimeError as e:
    print(e)
print(torch.histc(torch.tensor([1., 2, 1, 5, -1]), bins=4, min=0, max=3))
print(torch.histc(torch.tensor([1., 2, 3]), bins=3))
print(torch.histc(torch.tensor([0.1, 0.2, 0.3, 0.7, 1.0]), bins=10, min=0, max=1))
try:
    torch.histc(torch.tensor([1, 2]), bins=2)
except NotImplementedError as e:
    print(e)
print(torch.argwhere(torch.tensor([[0, 1], [2, 0]])))
print(torch.can_cast(torch.int32, torch.uint8), torch.can_cast(torch.int32, torch.bool),
      torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.bool, torch.float16))
a = torch.tensor([[0., 0], [3, 4], [1, 1]])
b = torch.tensor([[0., 0], [6, 8]])
print(torch.cdist(a, b), torch.cdist(a, b, p=1), torch.cdist(a, b, p=float('inf')))
print(torch.cdist(torch.arange(60.).reshape(30, 2) / 7, b))
x = torch.arange(7)
print(torch.tensor_split(x, 3), torch.tensor_split(x, [1, 5]), torch.tensor_split(x, [5, 1]))
print(torch.tensor_split(x, [-2, 9]), torch.arange(8).reshape(2, 4).tensor_split(3, dim=1))

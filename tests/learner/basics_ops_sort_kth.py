import torch

x = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0])
print(x.sort())
print(x.sort(descending=True).values)
print(torch.kthvalue(x, 2))
print(x.median(), x.mode())
print(torch.topk(x, 2, largest=False))
print(torch.msort(torch.tensor([[3, 1], [1, 2]])))

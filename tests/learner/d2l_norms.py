import torch

u = torch.tensor([3.0, -4.0])
print(torch.norm(u))
print(torch.abs(u).sum())
print(torch.norm(torch.ones((4, 9))))
print(u.norm(p=1), u.norm(p=float('inf')))
print(torch.linalg.norm(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.linalg.vector_norm(u, ord=2))

# A learner initialising a layer with orthogonal weights and checking W @ W.T
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(4, 3)
nn.init.orthogonal_(layer.weight)
print(layer.weight)
print(((layer.weight @ layer.weight.T) - torch.eye(3)).abs().max().item() < 1e-5)
w = torch.empty(2, 5)
nn.init.orthogonal_(w, gain=2.0)
print(w)
q, r = torch.linalg.qr(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
print(q)
print(r)
print(torch.allclose(q @ r, torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), atol=1e-5))

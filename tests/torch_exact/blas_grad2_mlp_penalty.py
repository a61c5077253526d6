import torch
import torch.nn as nn

# a gradient penalty (WGAN-GP style): the norm of d(critic)/d(input), minimised through the
# critic's weights; Linear layers are matrix products (BLAS order)
torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(5, 3, requires_grad=True)
out = critic(x)
(g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
print(type(g.grad_fn).__name__)
print(g.tolist())
penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
print(repr(penalty.item()))
penalty.backward()
for name, p in critic.named_parameters():
    print(name, None if p.grad is None else p.grad.tolist())

# the same gradient without create_graph, bit for bit
(plain,) = torch.autograd.grad(critic(x).sum(), x)
print(torch.equal(plain, g.detach()))

# sigmoid MLP: gradient penalty and .backward(create_graph=True)
net = nn.Sequential(nn.Linear(2, 4), nn.Sigmoid(), nn.Linear(4, 1))
u = torch.randn(3, 2, requires_grad=True)
loss = net(u).pow(2).mean()
loss.backward(create_graph=True)
print(type(u.grad.grad_fn).__name__)
gp = u.grad.pow(2).sum()
for p in net.parameters():
    p.grad = None
gp.backward()
print([None if p.grad is None else p.grad.tolist() for p in net.parameters()])

import torch
import torch.nn as nn

# learner-style higher-order autograd through Linear layers (printed at PyTorch's default
# precision; tests/torch_exact has the bit-for-bit elementwise cases)
torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(5, 3, requires_grad=True)
out = critic(x)
(g,) = torch.autograd.grad(out, x, grad_outputs=torch.ones_like(out), create_graph=True)
print(g)
penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
print(penalty)
penalty.backward()
for name, p in critic.named_parameters():
    print(name, None if p.grad is None else p.grad.abs().sum())
(plain,) = torch.autograd.grad(critic(x).sum(), x)
print(torch.equal(plain, g.detach()))

# Newton's method on a smooth scalar function of a vector
w = torch.tensor([1.0, -0.5], requires_grad=True)
A = torch.tensor([[3.0, 0.5], [0.5, 2.0]])
for step in range(3):
    f = 0.5 * w @ A @ w + torch.exp(w).sum() * 0.1
    (gw,) = torch.autograd.grad(f, w, create_graph=True)
    H = torch.stack([torch.autograd.grad(gw[i], w, retain_graph=True)[0] for i in range(2)])
    with torch.no_grad():
        w -= torch.linalg.solve(H, gw)
    print(step, f.item() > 0, w)

# hessian of a small network's loss with respect to its input
net = nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1))
H = torch.autograd.functional.hessian(lambda v: net(v).sum(), torch.tensor([0.3, -0.7]))
print(H)
J = torch.autograd.functional.jacobian(lambda v: torch.softmax(net[0](v), dim=0), torch.tensor([0.3, -0.7]))
print(J)

from dataclasses import dataclass, field, asdict
import torch


@dataclass
class HParams:
    lr: float = 0.1
    momentum: float = 0.9
    batch_size: int = 4
    layer_sizes: list = field(default_factory=lambda: [2, 8, 1])


hp = HParams(lr=0.05)
print(hp)
print(asdict(hp))
torch.manual_seed(1)
layers = []
for i, (a, b) in enumerate(zip(hp.layer_sizes, hp.layer_sizes[1:])):
    layers.append(torch.nn.Linear(a, b))
    if i < len(hp.layer_sizes) - 2:
        layers.append(torch.nn.Tanh())
model = torch.nn.Sequential(*layers)
opt = torch.optim.SGD(model.parameters(), lr=hp.lr, momentum=hp.momentum)
x = torch.randn(hp.batch_size, 2)
y = x[:, :1] * 2
for step in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
print(f"final loss {loss.item():.4f}")
print(hp == HParams(lr=0.05), hp == HParams())
HParams(0.1, 0.9, 4, [2, 1], 7)

# A small 1-d autoencoder: Conv1d down, ConvTranspose1d back up, then its training step's shapes
import torch
import torch.nn as nn

torch.manual_seed(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, 4, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.ConvTranspose1d(4, 1, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        z = self.encoder(x)
        print("code:", tuple(z.shape))
        return self.decoder(z)


model = AutoEncoder()
print(model)
x = torch.linspace(-1.0, 1.0, 16).reshape(2, 1, 8)
y = model(x)
print("output:", tuple(y.shape), y.grad_fn is not None)
loss = ((y - x) ** 2).mean()
loss.backward()
for name, p in model.named_parameters():
    print(name, tuple(p.shape), tuple(p.grad.shape))

# the requested output length picks the output_padding
up = nn.ConvTranspose1d(4, 2, 3, stride=2)
print(up)
z = torch.ones(1, 4, 5)
print(tuple(up(z).shape), tuple(up(z, output_size=[12]).shape))
try:
    up(z, output_size=[13])
except ValueError as e:
    print("ValueError:", e)

# fixed weights: the values themselves
w = torch.arange(12.0).reshape(2, 2, 3) / 10
print(torch.nn.functional.conv_transpose1d(torch.tensor([[[1.0, 2.0], [3.0, -1.0]]]), w, stride=2))
print(torch.nn.functional.conv_transpose2d(torch.ones(1, 2, 2, 2), torch.ones(2, 2, 2, 2), groups=2, stride=2))
print(nn.ConvTranspose3d(2, 4, 2, stride=2, groups=2, bias=False))
print(tuple(nn.ConvTranspose3d(2, 4, 2, stride=2)(torch.ones(1, 2, 2, 3, 3)).shape))
try:
    nn.ConvTranspose2d(4, 2, 3, padding_mode="reflect")
except ValueError as e:
    print("ValueError:", e)
try:
    torch.nn.functional.conv_transpose1d(torch.ones(1, 3, 5), torch.ones(4, 2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
torch.nn.functional.conv_transpose1d(torch.ones(1, 4, 5), torch.ones(4, 2, 3), output_padding=1)

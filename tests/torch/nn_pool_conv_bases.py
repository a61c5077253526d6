# Pooling and convolution modules on PyTorch's bases (_MaxPoolNd, _AvgPoolNd,
# _AdaptiveMaxPoolNd, _AdaptiveAvgPoolNd; _ConvNd.forward through _conv_forward): their MROs,
# fields and reprs, adaptive max pooling's values and indices (NaN and tied windows) in 2d and
# 3d, and a subclass that calls _conv_forward with its own weight.
import torch
import torch.nn as nn
import torch.nn.functional as F

pools = [nn.MaxPool1d(2), nn.MaxPool2d(3, 1, 1, ceil_mode=True), nn.AvgPool1d(3, padding=1),
         nn.AvgPool2d(2, divisor_override=3), nn.AvgPool3d((1, 2, 2), count_include_pad=False),
         nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((2, 3), True), nn.AdaptiveMaxPool3d(2),
         nn.AdaptiveAvgPool1d(2), nn.AdaptiveAvgPool2d(3), nn.AdaptiveAvgPool3d((1, 2, 3))]
for m in pools:
    print(m, [c.__name__ for c in type(m).__mro__])
    print(' ', sorted((k, v) for k, v in vars(m).items() if not k.startswith('_') and k != 'training'))

x = torch.arange(2 * 3 * 5 * 7, dtype=torch.float32).reshape(2, 3, 5, 7).remainder(4)
x[0, 1, 2, 3] = float('nan')
x[1, 2, 4, 6] = float('nan')
x[1, 2, 4, 5] = float('nan')
print(*F.adaptive_max_pool2d(x, (3, 4), return_indices=True), sep='\n')
print(*F.adaptive_max_pool2d(x[0], (2, 5), return_indices=True), sep='\n')
print(*F.adaptive_max_pool2d(torch.zeros(1, 2, 3, 3), (0, 2), return_indices=True), sep='\n')
y = torch.arange(2 * 2 * 4 * 5 * 6, dtype=torch.float64).reshape(2, 2, 4, 5, 6).remainder(5)
y[0, 0, 1, 2, 3] = float('nan')
print(*F.adaptive_max_pool3d(y, (3, 2, 4), return_indices=True), sep='\n')
print(*nn.AdaptiveMaxPool3d((2, 3, 5), return_indices=True)(y[1]), sep='\n')
print(nn.AvgPool1d(2)(torch.arange(8.).reshape(1, 1, 8)), nn.MaxPool1d(3, 1)(torch.arange(8.).reshape(1, 1, 8)))
print(nn.AvgPool2d(2)(x[:, :, :4, :6]), nn.AvgPool3d(2)(y).shape)


def fill(conv):
    # small integers: every sum is exact, whichever order a kernel adds in
    with torch.no_grad():
        conv.weight.copy_(torch.arange(conv.weight.numel()).reshape(conv.weight.shape).remainder(3) - 1)
        conv.bias.fill_(1)
    return conv


for conv, shape in [(nn.Conv1d(2, 3, 3, padding=1, padding_mode='circular'), (1, 2, 6)),
                    (nn.Conv1d(2, 2, 3, padding='same', dilation=2), (2, 5)),
                    (nn.Conv2d(1, 2, 3, padding='same', padding_mode='reflect'), (1, 1, 4, 4)),
                    (nn.Conv3d(2, 2, (1, 2, 2), stride=2, padding_mode='replicate', padding=1), (1, 2, 2, 4, 4))]:
    fill(conv)
    out = conv(torch.tensor([float(i % 5) for i in range(torch.Size(shape).numel())]).reshape(shape))
    print(conv, [c.__name__ for c in type(conv).__mro__], out.detach())


class HalfWeightConv(nn.Conv2d):
    def forward(self, input):
        return self._conv_forward(input, self.weight * 0.5, None)


h = fill(HalfWeightConv(1, 1, 2))
print(h(torch.ones(1, 1, 3, 3)).detach())

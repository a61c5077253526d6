

# ---- F.bilinear and nn.Bilinear: ATen's bilinear over _trilinear, op for op (per output
# feature k, one bmm of the flattened input1 with weight[k], one batched dot with input2,
# added to zeros; then the bias), so the float bits are PyTorch's ----


def _f_bilinear(input1, input2, weight, bias=None):
    if input1.dim() != input2.dim():
        raise RuntimeError(f'bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}')
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f'bilinear(): input batch dimensions do not match: got {input1.shape[i]} '
                               f'and {input2.shape[i]}')
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(f'bilinear(): input1 size does not match weight size: got {input1.shape[-1]} '
                           f'but expected {weight.shape[1]}')
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f'bilinear(): input2 size does not match weight size: got {input2.shape[-1]} '
                           f'but expected {weight.shape[2]}')
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f'bilinear(): bias size does not match weight size: got {bias.shape[0]} '
                           f'but expected {weight.shape[0]}')
    out_size = list(input1.shape[:-1]) + [weight.shape[0]]
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    b = x1.shape[0]
    cols = []
    if x1.numel() != 0 and x2.numel() != 0 and weight.numel() != 0:
        for k in range(weight.shape[0]):
            buf = torch.bmm(x1.unsqueeze(0), weight[k].unsqueeze(0)).squeeze(0)
            dot = torch.bmm(buf.unsqueeze(1), x2.unsqueeze(2)).reshape(b)
            cols.append(torch.zeros(b, dtype=dot.dtype, device=dot.device) + dot)
        out = torch.stack(cols, 1)
    else:
        out = torch.zeros(b, weight.shape[0], dtype=input1.dtype, device=input1.device)
    out = out.reshape(out_size)
    if bias is not None:
        out = out + bias
    return out


class Bilinear(Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        _empty_weight_and_bias(self, (out_features, in1_features, in2_features), bias, out_features, device, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        with torch.no_grad():
            self.weight.uniform_(-bound, bound)
            if self.bias is not None:
                self.bias.uniform_(-bound, bound)

    def forward(self, input1, input2):
        return functional.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f'in1_features={self.in1_features}, in2_features={self.in2_features}, '
                f'out_features={self.out_features}, bias={self.bias is not None}')


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['bilinear']

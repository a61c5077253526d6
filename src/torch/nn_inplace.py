
# ---- nn_inplace.py: the in-place activations of torch.nn.functional ----
# Each is its out-of-place form written back into the input (torch._C._inplace_result:
# PyTorch's leaf and cast refusals, the input's new autograd history), under the node name
# PyTorch gives the in-place form where it differs; when the input requires grad the op reads
# a clone, so its saved values are the old ones.
def _inplace_activation(f, name, grad_fn=None):
    def g(input, *args, **kwargs):
        src = input.clone() if input.requires_grad and torch.is_grad_enabled() else input
        return torch._C._inplace_result(input, f(src, *args, **kwargs), name, grad_fn)
    g.__name__ = name
    return g


def _f_relu_(input):
    return torch.relu_(input)


_f_hardtanh_ = _inplace_activation(lambda x, min_val=-1.0, max_val=1.0: _f_hardtanh(x, min_val, max_val), 'hardtanh_')
_f_leaky_relu_ = _inplace_activation(lambda x, negative_slope=0.01: _f_leaky_relu(x, negative_slope), 'leaky_relu_', 'LeakyReluBackward1')
_f_threshold_ = _inplace_activation(lambda x, threshold, value: _f_threshold(x, threshold, value), 'threshold_', 'ThresholdBackward1')
_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['relu_', 'hardtanh_', 'leaky_relu_', 'threshold_']


# ---- extra_aliases.py: PyTorch's other spellings of ops the engine has ----
# (concatenated after extra.py into torch._extra; `_t_NAME` is the Tensor method NAME)

def _t_where(self, condition, other):
    # Tensor.where(condition, y) is torch.where(condition, self, y)
    return torch.where(condition, self, other)


def broadcast_to(input, size):
    # ATen's broadcast_to is expand: the same view, errors and ExpandBackward0
    return input.expand(size)


def take_along_dim(input, indices, dim=None):
    # ATen's take_along_dim: a gather of the flattened input, or of input and indices
    # broadcast against each other outside dim
    if indices.dtype != torch.int64:
        raise RuntimeError(f'torch.take_along_dim(): dtype of indices should be Long but got {_dtype_name(indices.dtype)}')
    if dim is None:
        return input.view(-1).gather(0, indices.view(-1))
    if input.dim() != indices.dim():
        raise RuntimeError(f'torch.take_along_dim(): input and indices should have the same number of dimensions, but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices')
    dim = _one_dim(input, dim)
    self_sizes = list(input.shape)
    self_sizes[dim] = indices.shape[dim]
    indices_b = indices.broadcast_to(torch.broadcast_shapes(self_sizes, indices.shape))
    indices_sizes = list(indices.shape)
    indices_sizes[dim] = input.shape[dim]
    input_b = input.broadcast_to(torch.broadcast_shapes(indices_sizes, input.shape))
    return torch.gather(input_b, dim, indices_b)


def is_signed(input):
    # bool and the unsigned integers are the unsigned dtypes
    return not (input.dtype == torch.bool or str(input.dtype).startswith('torch.uint'))


def is_same_size(input, other):
    return input.shape == other.shape


def concatenate(tensors, dim=0, axis=None):
    return torch.cat(tensors, axis if axis is not None else dim)


_t_broadcast_to = broadcast_to
_t_take_along_dim = take_along_dim
_t_is_signed = is_signed
_t_is_same_size = is_same_size
_t_is_nonzero = is_nonzero
torch.broadcast_to = broadcast_to
torch.take_along_dim = take_along_dim
torch.is_signed = is_signed
torch.is_same_size = is_same_size
torch.concatenate = concatenate


# torch.X spellings of torch.nn.functional ops (PyTorch binds both to one ATen op; the
# ones whose torch.X signature orders its arguments apart are mapped by name)
def _functional(name):
    def f(*args, **kwargs):
        return getattr(torch.nn.functional, name)(*args, **kwargs)
    f.__name__ = name
    return f


for _name in ['conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d',
              'conv_transpose3d', 'cosine_similarity', 'pairwise_distance', 'bilinear',
              'pixel_shuffle', 'pixel_unshuffle', 'selu', 'celu', 'hardshrink', 'prelu',
              'threshold', 'adaptive_avg_pool1d', 'rms_norm']:
    setattr(torch, _name, _functional(_name))


def _t_hardshrink(self, lambd=0.5):
    return torch.nn.functional.hardshrink(self, lambd)


def _t_prelu(self, weight):
    return torch.nn.functional.prelu(self, weight)


def _reduction_name(reduction):
    # the torch.X loss spellings take ATen's Reduction enum: 0 none, 1 mean, 2 sum
    return ['none', 'mean', 'sum'][reduction]


def _torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return torch.nn.functional.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def _torch_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)


def _torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return torch.nn.functional.group_norm(input, num_groups, weight, bias, eps)


def _torch_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return torch.nn.functional.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


# reduction's default is PyTorch's: its parser reads the signature's default
# `at::Reduction::Mean` as 0, so the torch.X spelling reduces nothing unless told
def _torch_binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return torch.nn.functional.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction_name(reduction), pos_weight=pos_weight)


def _torch_alpha_dropout(input, p, train):
    return torch.nn.functional.alpha_dropout(input, p, train)


def _torch_dropout(input, p, train):
    return torch.nn.functional.dropout(input, p, train)


def _torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return torch.nn.functional.embedding(indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0, scale_grad_by_freq, sparse)


torch.batch_norm = _torch_batch_norm
torch.layer_norm = _torch_layer_norm
torch.group_norm = _torch_group_norm
torch.instance_norm = _torch_instance_norm
torch.binary_cross_entropy_with_logits = _torch_binary_cross_entropy_with_logits
torch.alpha_dropout = _torch_alpha_dropout
torch.dropout = _torch_dropout
torch.embedding = _torch_embedding

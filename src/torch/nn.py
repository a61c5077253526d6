# torch.nn for cudatutor: modules written in Python over the native ops.
import math
import torch
import torch._C as _C
import torch._F as functional

Parameter = _C.Parameter
from collections import OrderedDict


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return f'_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})'

    def __iter__(self):
        return iter((self.missing_keys, self.unexpected_keys))


_SCALAR_NAMES = {torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
                 torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char',
                 torch.uint8: 'Byte', torch.bool: 'Bool'}


def _is_param(v):
    return _C.is_parameter(v)


class _RemovableHandle:
    _next_id = 0

    def __init__(self, hooks, hook):
        self.id = _RemovableHandle._next_id
        _RemovableHandle._next_id += 1
        self.hooks_dict_ref = hooks
        hooks[self.id] = hook

    def remove(self):
        if self.id in self.hooks_dict_ref:
            del self.hooks_dict_ref[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.remove()


class Module:
    def __init__(self):
        self.training = True

    def __setattr__(self, name, value):
        # nn.Module keeps submodules and parameters in dicts __init__ creates: before it ran
        # (a subclass that forgot super().__init__()) PyTorch refuses to register them
        if 'training' not in self.__dict__:
            if isinstance(value, Module):
                raise AttributeError('cannot assign module before Module.__init__() call')
            if _is_param(value):
                raise AttributeError('cannot assign parameters before Module.__init__() call')
        object.__setattr__(self, name, value)

    def __call__(self, *args, **kwargs):
        pre = self.__dict__.get('_forward_pre_hooks')
        if pre:
            for hook in list(pre.values()):
                r = hook(self, args)
                if r is not None:
                    args = r if isinstance(r, tuple) else (r,)
        out = self.forward(*args, **kwargs)
        post = self.__dict__.get('_forward_hooks')
        if post:
            for hook in list(post.values()):
                r = hook(self, args, out)
                if r is not None:
                    out = r
        return out

    def _add_hook(self, kind, hook):
        hooks = self.__dict__.get(kind)
        if hooks is None:
            hooks = OrderedDict()
            self.__dict__[kind] = hooks
        return _RemovableHandle(hooks, hook)

    def register_forward_hook(self, hook):
        return self._add_hook('_forward_hooks', hook)

    def register_forward_pre_hook(self, hook):
        return self._add_hook('_forward_pre_hooks', hook)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def _child_list(self):
        return [(k, v) for k, v in self.__dict__.items() if isinstance(v, Module)]

    def _param_list(self, prefix='', recurse=True):
        out = []
        for k, v in self.__dict__.items():
            if _is_param(v):
                out.append((prefix + k, v))
        if recurse:
            for k, m in self._child_list():
                out.extend(m._param_list(prefix + k + '.'))
        return out

    def _module_list(self):
        out = [self]
        for _, m in self._child_list():
            out.extend(m._module_list())
        return out

    # PyTorch returns generators here; iterators over lists behave the same for next()/for/list()
    def named_children(self):
        return iter(self._child_list())

    def children(self):
        return iter([m for _, m in self._child_list()])

    def modules(self):
        return iter(self._module_list())

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        out = []
        seen = set()

        def walk(m, pre):
            if remove_duplicate:
                if id(m) in seen:
                    return
                seen.add(id(m))
            out.append((pre, m))
            for k, c in m._child_list():
                walk(c, pre + ('.' if pre else '') + k)
        walk(self, prefix)
        return iter(out)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f'{type(module).__name__} is not a Module subclass')
        if not isinstance(name, str):
            raise TypeError(f'module name should be a string. Got {type(name).__name__}')
        if '.' in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == '':
            raise KeyError('module name can\'t be empty string ""')
        self.__dict__[name] = module

    register_module = add_module

    def register_buffer(self, name, tensor, persistent=True):
        # only registered buffers move with .to()/.cuda() and belong to state_dict: a tensor
        # kept as a plain attribute stays where it was made, as in PyTorch
        self.__dict__[name] = tensor
        names = self.__dict__.get('_buffer_names')
        if names is None:
            names = []
            self.__dict__['_buffer_names'] = names
        if name not in names:
            names.append(name)

    def _is_buffer(self, k, v):
        return isinstance(v, torch.Tensor) and not _is_param(v) and k in self.__dict__.get('_buffer_names', ())

    def register_parameter(self, name, param):
        self.__dict__[name] = param

    def get_submodule(self, target):
        m = self
        if target == '':
            return m
        for part in target.split('.'):
            m = getattr(m, part)
        return m

    def apply(self, fn):
        for _, m in self._child_list():
            m.apply(fn)
        fn(self)
        return self

    def load_state_dict(self, state_dict, strict=True, assign=False):
        own = dict(self._param_list())
        own.update(self._buffer_list())
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for k, p in own.items():
            if k in state_dict:
                v = state_dict[k]
                if not isinstance(v, torch.Tensor):
                    errors.append(f'While copying the parameter named "{k}", expected torch.Tensor or Tensor-like object from checkpoint but received {type(v)}')
                    continue
                if v.shape != p.shape:
                    errors.append(f'size mismatch for {k}: copying a param with shape {v.shape} from checkpoint, the shape in current model is {p.shape}.')
                    continue
                with torch.no_grad():
                    p.copy_(v)
        if strict:
            if unexpected:
                errors.insert(0, 'Unexpected key(s) in state_dict: {}. '.format(', '.join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, 'Missing key(s) in state_dict: {}. '.format(', '.join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError('Error(s) in loading state_dict for {}:\n\t{}'.format(type(self).__name__, '\n\t'.join(errors)))
        return _IncompatibleKeys(missing if not strict else [], unexpected if not strict else [])

    def _buffer_list(self, prefix=''):
        out = []
        for k, v in self.__dict__.items():
            if self._is_buffer(k, v):
                out.append((prefix + k, v))
        for k, m in self._child_list():
            out.extend(m._buffer_list(prefix + k + '.'))
        return out

    def named_buffers(self, prefix='', recurse=True):
        return iter(self._buffer_list(prefix))

    def _unique_params(self, prefix='', recurse=True):
        # a parameter shared by two modules (tied layers) is listed once, under its first name
        seen = set()
        out = []
        for k, p in self._param_list(prefix, recurse):
            if id(p) in seen:
                continue
            seen.add(id(p))
            out.append((k, p))
        return out

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        if not remove_duplicate:
            return iter(self._param_list(prefix, recurse))
        return iter(self._unique_params(prefix, recurse))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._unique_params(recurse=recurse)])

    @property
    def _modules(self):
        return _ModulesView(self)

    def buffers(self):
        return iter([v for _, v in self._buffer_list()])

    def _apply(self, fn):
        for k, v in list(self.__dict__.items()):
            if _is_param(v):
                self.__dict__[k] = Parameter(fn(v), v.requires_grad)
            elif self._is_buffer(k, v):
                self.__dict__[k] = fn(v)
        for k, m in self._child_list():
            m._apply(fn)
        return self

    def to(self, *args, **kwargs):
        return self._apply(lambda t: t.to(*args, **kwargs))

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def float(self):
        return self._apply(lambda t: t.float())

    def double(self):
        return self._apply(lambda t: t.double())

    def train(self, mode=True):
        for m in self._module_list():
            m.training = mode
        return self

    def eval(self):
        return self.train(False)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.zero_()

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def state_dict(self, destination=None, prefix='', keep_vars=False):
        d = OrderedDict()
        for k, p in self._param_list(prefix) + self._buffer_list(prefix):
            d[k] = p if keep_vars else p.detach()
        return d

    def extra_repr(self):
        return ''

    def __repr__(self):
        lines = []
        for k, m in self._child_list():
            r = repr(m).replace('\n', '\n  ')
            lines.append('(' + k + '): ' + r)
        main = type(self).__name__ + '(' + self.extra_repr()
        if lines:
            main = main + '\n  ' + '\n  '.join(lines) + '\n'
        return main + ')'


class _ModulesView:
    # `module._modules`: the submodules as an ordered mapping, writes registering them
    def __init__(self, owner):
        self._owner = owner

    def _items(self):
        return self._owner._child_list()

    def __setitem__(self, key, module):
        self._owner.__dict__[key] = module

    def __getitem__(self, key):
        for k, m in self._items():
            if k == key:
                return m
        raise KeyError(key)

    def __delitem__(self, key):
        self[key]
        del self._owner.__dict__[key]

    def __contains__(self, key):
        return key in self.keys()

    def __len__(self):
        return len(self._items())

    def __iter__(self):
        return iter(self.keys())

    def get(self, key, default=None):
        return self[key] if key in self.keys() else default

    def keys(self):
        return [k for k, _ in self._items()]

    def values(self):
        return [m for _, m in self._items()]

    def items(self):
        return self._items()

    def __repr__(self):
        return 'OrderedDict(' + repr(self._items()) + ')'


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], (dict, OrderedDict)):
            for k, m in modules[0].items():
                self.add_module(k, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, input):
        for _, m in self._child_list():
            input = m(input)
        return input

    def __getitem__(self, i):
        items = self._child_list()
        if isinstance(i, slice):
            return Sequential(OrderedDict(items[i]))
        n = len(items)
        if not -n <= i < n:
            raise IndexError(f'index {i} is out of range')
        return items[i % n][1]

    def __len__(self):
        return len(self._child_list())

    def __iter__(self):
        return iter([m for _, m in self._child_list()])

    def append(self, m):
        self.__dict__[str(len(self))] = m
        return self

    def _renumber(self, mods):
        for k, _ in self._child_list():
            del self.__dict__[k]
        for i, m in enumerate(mods):
            self.__dict__[str(i)] = m

    def __delitem__(self, idx):
        mods = [m for _, m in self._child_list()]
        if isinstance(idx, slice):
            del mods[idx]
        else:
            n = len(mods)
            if not -n <= idx < n:
                raise IndexError(f'index {idx} is out of range')
            del mods[idx]
        self._renumber(mods)

    def __setitem__(self, idx, module):
        items = self._child_list()
        n = len(items)
        if not -n <= idx < n:
            raise IndexError(f'index {idx} is out of range')
        self.__dict__[items[idx % n][0]] = module

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f'module should be of type: {Module}')
        mods = [m for _, m in self._child_list()]
        n = len(mods)
        if not (-n <= index <= n):
            raise IndexError(f'Index out of range: {index}')
        if index < 0:
            index += n
        mods.insert(index, module)
        self._renumber(mods)
        return self

    def extend(self, sequential):
        for m in sequential:
            self.append(m)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def update(self, modules):
        items = modules.items() if hasattr(modules, 'items') else modules
        for k, m in items:
            self.add_module(k, m)

    def __getitem__(self, key):
        return self.__dict__[key] if key in self.keys() else self._missing(key)

    def _missing(self, key):
        raise KeyError(key)

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __len__(self):
        return len(self._child_list())

    def __iter__(self):
        return iter(self.keys())

    def __contains__(self, key):
        return key in self.keys()

    def keys(self):
        return [k for k, _ in self._child_list()]

    def values(self):
        return [m for _, m in self._child_list()]

    def items(self):
        return self._child_list()

    def pop(self, key):
        m = self[key]
        del self.__dict__[key]
        return m


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        for m in (modules or []):
            self.append(m)

    def append(self, m):
        self.__dict__[str(len(self._child_list()))] = m
        return self

    def __getitem__(self, i):
        return [m for _, m in self._child_list()][i]

    def __len__(self):
        return len(self._child_list())

    def __iter__(self):
        return iter([m for _, m in self._child_list()])


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty(out_features, in_features, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.bias = None
        self.reset_parameters()

    def reset_parameters(self):
        # PyTorch's order and arithmetic: kaiming_uniform_(weight, a=sqrt(5)), then the bias
        # from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), each one uniform_ on the default stream.
        fan_in = self.in_features
        if self.weight.numel() > 0:
            gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
            std = gain / math.sqrt(fan_in)
            bound = math.sqrt(3.0) * std
            with torch.no_grad():
                self.weight.uniform_(-bound, bound)
        if self.bias is not None:
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            with torch.no_grad():
                self.bias.uniform_(-bound, bound)

    def forward(self, input):
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f'in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}'


def _pair(v):
    if isinstance(v, (tuple, list)):
        return tuple(v) if len(v) != 1 else (v[0], v[0])
    return (v, v)


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        if isinstance(padding, str):
            raise NotImplementedError("cudatutor does not support string padding ('same'/'valid') in Conv2d yet")
        if padding_mode != 'zeros':
            raise NotImplementedError(f"cudatutor supports only padding_mode='zeros' in Conv2d")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)
        self.padding = _pair(padding)
        self.dilation = _pair(dilation)
        self.transposed = False
        self.output_padding = (0, 0)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(torch.empty(out_channels, in_channels // groups, *self.kernel_size,
                                            device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.bias = None
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_(weight, a=sqrt(5)), then the bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in))
        fan_in = self.weight.shape[1] * self.kernel_size[0] * self.kernel_size[1]
        if self.weight.numel() > 0:
            gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
            std = gain / math.sqrt(fan_in)
            bound = math.sqrt(3.0) * std
            with torch.no_grad():
                self.weight.uniform_(-bound, bound)
        if self.bias is not None and fan_in != 0:
            bound = 1 / math.sqrt(fan_in)
            with torch.no_grad():
                self.bias.uniform_(-bound, bound)

    def forward(self, input):
        return functional.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        s = f'{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}'
        if self.padding != (0, 0):
            s += f', padding={self.padding}'
        if self.dilation != (1, 1):
            s += f', dilation={self.dilation}'
        if self.groups != 1:
            s += f', groups={self.groups}'
        if self.bias is None:
            s += ', bias=False'
        return s


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return functional.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                     ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, '
                f'dilation={self.dilation}, ceil_mode={self.ceil_mode}')


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return functional.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                     self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return functional.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f'output_size={self.output_size}'


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, 'Padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, 'Padding_idx must be within num_embeddings'
                padding_idx = num_embeddings + padding_idx
            self.padding_idx = padding_idx
        self.weight = Parameter(torch.empty(num_embeddings, embedding_dim, device=device, dtype=dtype).normal_(0.0, 1.0))
        if padding_idx is not None:
            with torch.no_grad():
                self.weight[padding_idx].fill_(0)

    def forward(self, input):
        return functional.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = f'{self.num_embeddings}, {self.embedding_dim}'
        if self.padding_idx is not None:
            s = s + f', padding_idx={self.padding_idx}'
        return s


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return functional.relu(input)


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


class Identity(Module):
    def forward(self, input):
        return input


_MODULE_PY = '/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py'
_LOSS_PY = '/usr/local/lib/python3.11/site-packages/torch/nn/modules/loss.py'


def _legacy_softmax_dim(name, ndim):
    _C.warn(f'Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.',
            _MODULE_PY, 1787, 'return self._call_impl(*args, **kwargs)')
    return 0 if ndim in (0, 1, 3) else 1


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        if self.dim is None:
            return functional.softmax(input, _legacy_softmax_dim('softmax', input.dim()))
        return functional.softmax(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        if self.dim is None:
            return functional.log_softmax(input, _legacy_softmax_dim('log_softmax', input.dim()))
        return functional.log_softmax(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f'start_dim={self.start_dim}, end_dim={self.end_dim}'


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return functional.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f'p={self.p}, inplace={self.inplace}'


class CrossEntropyLoss(Module):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return functional.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                                        reduction=self.reduction, label_smoothing=self.label_smoothing)


class NLLLoss(Module):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, input, target):
        return functional.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                                   reduction=self.reduction)


class MSELoss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        if input.shape != target.shape:
            _C.warn(_size_warning(input, target), _LOSS_PY, 630,
                    'return F.mse_loss(input, target, reduction=self.reduction)')
        return functional.mse_loss(input, target, reduction=self.reduction, _warn=False)


class L1Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        if input.shape != target.shape:
            _C.warn(_size_warning(input, target), _LOSS_PY, 134,
                    'return F.l1_loss(input, target, reduction=self.reduction)')
        return functional.l1_loss(input, target, reduction=self.reduction, _warn=False)


class BCELoss(Module):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, target):
        return functional.binary_cross_entropy(input, target, weight=self.weight,
                                               reduction=self.reduction)


def _size_warning(input, target):
    return (f'Using a target size ({target.size()}) that is different to the input size ({input.size()}). '
            'This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.')




class Unflatten(Module):
    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        d = self.dim % input.dim()
        shape = list(input.shape[:d]) + list(self.unflattened_size) + list(input.shape[d + 1:])
        return input.reshape(*shape)

    def extra_repr(self):
        return f'dim={self.dim}, unflattened_size={self.unflattened_size}'


# functional forms written in Python (put into torch.nn.functional by torch.nn._fx)
_PY_FUNCTIONAL = ['leaky_relu', 'binary_cross_entropy_with_logits', 'smooth_l1_loss', 'huber_loss', 'softplus',
                  'elu', 'relu6', 'hardtanh', 'silu', 'mish', 'logsigmoid', 'normalize', 'cosine_similarity',
                  'pairwise_distance', 'kl_div', 'softmin', 'threshold', 'hardsigmoid', 'hardswish', 'tanh',
                  'sigmoid', 'glu', 'selu', 'celu', 'softsign', 'tanhshrink']


def _reduce(loss, reduction):
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    if reduction == 'none':
        return loss
    raise ValueError(f'{reduction} is not a valid value for reduction')


def _act_result(input, out, inplace):
    if inplace:
        input.copy_(out)
        return input
    return out


def _f_leaky_relu(input, negative_slope=0.01, inplace=False):
    return _act_result(input, _C._activation('leaky_relu', input, negative_slope), inplace)


def _f_binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                        reduction='mean', pos_weight=None):
    if target.shape != input.shape:
        raise ValueError(f'Target size ({target.size()}) must be the same as input size ({input.size()})')
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if not target.is_floating_point() and input.is_floating_point():
        raise RuntimeError(f"result type {_SCALAR_NAMES.get(input.dtype, 'Float')} can't be cast to the desired output type {_SCALAR_NAMES.get(target.dtype, 'Long')}")
    return _C._loss('binary_cross_entropy_with_logits', input, target, weight, pos_weight, reduction)


def _f_smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0):
    if input.shape != target.shape:
        _C.warn(_size_warning(input, target))
    if beta < 0:
        raise RuntimeError('smooth_l1_loss does not support negative values for beta.')
    if beta == 0.0:
        # torch/nn/functional.py: beta 0 is l1_loss (its node is the mean's or the sum's)
        return functional.l1_loss(input, target, reduction=reduction)
    return _C._loss('smooth_l1_loss', input, target, None, None, reduction, beta)


def _f_huber_loss(input, target, reduction='mean', delta=1.0, weight=None):
    if input.shape != target.shape:
        _C.warn(_size_warning(input, target))
    if weight is not None:
        z = (input - target).abs()
        loss = torch.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)) * weight
        return _reduce(loss, reduction)
    if delta <= 0:
        raise RuntimeError('huber_loss does not support non-positive values for delta.')
    return _C._loss('huber_loss', input, target, None, None, reduction, delta)


def _f_softplus(input, beta=1.0, threshold=20.0):
    return _C._activation('softplus', input, beta, threshold)


def _f_elu(input, alpha=1.0, inplace=False):
    return _act_result(input, _C._activation('elu', input, alpha, 1.0, 1.0), inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _f_selu(input, inplace=False):
    return _act_result(input, _C._activation('elu', input, _SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def _f_celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError('ZeroDivisionError: alpha cannot be 0 for CELU')
    return _act_result(input, _C._activation('celu', input, alpha), inplace)


def _f_relu6(input, inplace=False):
    return _f_hardtanh(input, 0.0, 6.0, inplace)


def _f_hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError('min_val cannot be greater than max_val')
    if not input.is_floating_point():
        return _act_result(input, input.clamp(min_val, max_val), inplace)
    return _act_result(input, _C._activation('hardtanh', input, min_val, max_val), inplace)


def _f_silu(input, inplace=False):
    return _act_result(input, _C._activation('silu', input), inplace)


def _f_mish(input, inplace=False):
    return _act_result(input, _C._activation('mish', input), inplace)


def _f_logsigmoid(input):
    return _C._activation('log_sigmoid', input)


def _f_hardsigmoid(input, inplace=False):
    return _act_result(input, _C._activation('hardsigmoid', input), inplace)


def _f_hardswish(input, inplace=False):
    return _act_result(input, _C._activation('hardswish', input), inplace)


def _f_softsign(input):
    # torch/nn/functional.py's own composition
    return input / (input.abs() + 1)


def _f_tanhshrink(input):
    return input - input.tanh()


def _f_threshold(input, threshold, value, inplace=False):
    return torch.where(input > threshold, input, torch.full_like(input, value))


def _f_tanh(input):
    return torch.tanh(input)


def _f_sigmoid(input):
    return torch.sigmoid(input)


def _f_glu(input, dim=-1):
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


def _f_softmin(input, dim=None, _stacklevel=3, dtype=None):
    return functional.softmax(-input, dim)


def _f_normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = input.norm(p, dim, keepdim=True).clamp(min=eps).expand_as(input)
    return input / denom


def _f_cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # ATen's cosine_similarity: each input divided by its own norm (clamped to eps in place,
    # without grad), then the product summed
    if x1.shape != x2.shape:
        shape = (x1.detach() * x2.detach()).shape
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    with torch.no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _f_pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def _f_kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    if log_target:
        loss = target.exp() * (target - input)
    else:
        # ATen's kl_div: xlogy(target, target) - target * input
        loss = torch.xlogy(target, target) - target * input
    if reduction == 'batchmean':
        return loss.sum() / input.shape[0] if input.dim() != 0 else loss.sum()
    if reduction == 'mean':
        _C.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    return _reduce(loss, reduction)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return _f_leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f'negative_slope={self.negative_slope}' + (', inplace=True' if self.inplace else '')


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return _f_elu(input, self.alpha)

    def extra_repr(self):
        return f'alpha={self.alpha}' + (', inplace=True' if self.inplace else '')


class ReLU6(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_relu6(input)


class SELU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_selu(input, self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return _f_celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f'alpha={self.alpha}' + (', inplace=True' if self.inplace else '')


class Mish(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_mish(input, self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Hardswish(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_hardswish(input, self.inplace)


class Hardsigmoid(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_hardsigmoid(input, self.inplace)


class LogSigmoid(Module):
    def forward(self, input):
        return _f_logsigmoid(input)


class Softsign(Module):
    def forward(self, input):
        return _f_softsign(input)


class Tanhshrink(Module):
    def forward(self, input):
        return _f_tanhshrink(input)


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return _f_silu(input)


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return _f_softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f'beta={self.beta}, threshold={self.threshold}'


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, input):
        return _f_hardtanh(input, self.min_val, self.max_val)

    def extra_repr(self):
        return f'min_val={self.min_val}, max_val={self.max_val}'


class BCEWithLogitsLoss(Module):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None):
        super().__init__()
        self.weight = weight
        self.pos_weight = pos_weight
        self.reduction = reduction

    def forward(self, input, target):
        return _f_binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                   pos_weight=self.pos_weight)


class SmoothL1Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean', beta=1.0):
        super().__init__()
        self.reduction = reduction
        self.beta = beta

    def forward(self, input, target):
        return _f_smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(Module):
    def __init__(self, reduction='mean', delta=1.0):
        super().__init__()
        self.reduction = reduction
        self.delta = delta

    def forward(self, input, target):
        return _f_huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean', log_target=False):
        super().__init__()
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input, target):
        return _f_kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return _f_cosine_similarity(x1, x2, self.dim, self.eps)


def _replicate(m, device):
    r = object.__new__(type(m))
    for k, v in m.__dict__.items():
        if _is_param(v):
            r.__dict__[k] = Parameter(v.to(device), v.requires_grad)
        elif isinstance(v, torch.Tensor):
            r.__dict__[k] = v.to(device)
        elif isinstance(v, Module):
            r.__dict__[k] = _replicate(v, device)
        else:
            r.__dict__[k] = v
    return r


def _device_index(d):
    if isinstance(d, int):
        return d
    return torch.device(d).index


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        if not torch.cuda.is_available():
            # PyTorch 2.15: no GPU, no wrapping; forward calls the module as it is
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(torch.cuda.device_count()))
        self.device_ids = [_device_index(d) for d in device_ids]
        self.output_device = self.device_ids[0] if output_device is None else _device_index(output_device)
        self.dim = dim
        if len(self.device_ids) == 1:
            # on one device DataParallel moves the module there itself
            self.module.to(torch.device('cuda', self.device_ids[0]))

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        src = torch.device('cuda', self.device_ids[0])
        for p in self.module._param_list():
            p = p[1]
            if p.device != src:
                raise RuntimeError(f'module must have its parameters and buffers on device {src} (device_ids[0]) but found one of them on device: {p.device}')
        if len(self.device_ids) == 1:
            # one device: the batch is still scattered, i.e. copied to device_ids[0]
            moved = [i.to(src) if torch.is_tensor(i) else i for i in inputs]
            return self.module(*moved, **kwargs)
        x = inputs[0]
        n = len(self.device_ids)
        size = x.shape[self.dim]
        chunk = (size + n - 1) // n
        outs = []
        for i in range(n):
            d = self.device_ids[i]
            part = x[i * chunk:(i + 1) * chunk] if self.dim == 0 else x.transpose(0, self.dim)[i * chunk:(i + 1) * chunk].transpose(0, self.dim)
            if part.shape[self.dim] == 0:
                break
            part = part.to(f'cuda:{d}')
            replica = self.module if i == 0 else _replicate(self.module, f'cuda:{d}')
            with torch.cuda.device(d):
                outs.append(replica(part))
        return torch.cat([o.to(f'cuda:{self.output_device}') for o in outs], self.dim)


# ---- normalisation layers: one composite node each, named as PyTorch's fused kernel ----

def _f_batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
                  eps=1e-05):
    if training:
        size = list(input.shape)
        n = 1
        for i, s in enumerate(size):
            if i != 1:
                n *= s
        if n == 1:
            raise ValueError(f'Expected more than 1 value per channel when training, got input size {input.size()}')
    return _C._composite('NativeBatchNormBackward0', _batch_norm, input, weight, bias, running_mean,
                         running_var, training, momentum, eps)


def _batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps):
    # ATen's CPU batch norm: per channel mean and invstd = 1 / sqrt(var + eps), then
    # out = x * alpha + beta with alpha = invstd * weight, beta = bias - mean * alpha
    c = x.shape[1] if x.dim() > 1 else x.shape[0]
    dims = [0] + list(range(2, x.dim()))
    shape = [1, c] + [1] * (x.dim() - 2)
    if training:
        mean = x.mean(dims)
        var = x.var(dims, unbiased=False)
        if running_mean is not None:
            n = x.numel() // c
            with torch.no_grad():
                running_mean.copy_(momentum * mean + (1 - momentum) * running_mean)
                running_var.copy_(momentum * var * (n / (n - 1)) + (1 - momentum) * running_var)
    else:
        mean = running_mean
        var = running_var
    invstd = 1 / (var + eps).sqrt()
    alpha = invstd if weight is None else invstd * weight
    beta = -mean * alpha if bias is None else bias - mean * alpha
    return x * alpha.reshape(*shape) + beta.reshape(*shape)


class _BatchNorm(Module):
    _dims_ok = (2, 3)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(torch.ones(num_features, device=device, dtype=dtype))
            self.bias = Parameter(torch.zeros(num_features, device=device, dtype=dtype))
        else:
            self.weight = None
            self.bias = None
        if track_running_stats:
            self.register_buffer('running_mean', torch.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer('running_var', torch.ones(num_features, device=device, dtype=dtype))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.running_mean = None
            self.running_var = None
            self.num_batches_tracked = None

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            with torch.no_grad():
                self.weight.fill_(1)
                self.bias.zero_()

    def _check_input_dim(self, input):
        if input.dim() not in self._dims_ok:
            raise ValueError(self._dim_message(input))

    def forward(self, input):
        self._check_input_dim(input)
        eaf = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:
                    eaf = 1.0 / float(self.num_batches_tracked)
                else:
                    eaf = self.momentum
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return _f_batch_norm(input, self.running_mean if use_stats else None,
                             self.running_var if use_stats else None, self.weight, self.bias,
                             bn_training, eaf, self.eps)

    def extra_repr(self):
        return (f'{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, '
                f'bias={self.bias is not None if self.affine else True}, '
                f'track_running_stats={self.track_running_stats}')


class BatchNorm1d(_BatchNorm):
    def _dim_message(self, input):
        return f'expected 2D or 3D input (got {input.dim()}D input)'


class BatchNorm2d(_BatchNorm):
    _dims_ok = (4,)

    def _dim_message(self, input):
        return f'expected 4D input (got {input.dim()}D input)'


class BatchNorm3d(_BatchNorm):
    _dims_ok = (5,)

    def _dim_message(self, input):
        return f'expected 5D input (got {input.dim()}D input)'


def _f_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    ns = list(normalized_shape)
    k = len(ns)
    if list(input.shape[input.dim() - k:]) != ns or input.dim() < k:
        raise RuntimeError(f'Given normalized_shape={ns}, expected input with shape [*, {", ".join(str(s) for s in ns)}], but got input of size{list(input.shape)}')
    return _C._composite('NativeLayerNormBackward0', _layer_norm, input, weight, bias, k, eps)


def _layer_norm(x, weight, bias, k, eps):
    # ATen's CPU layer norm: rstd = 1 / sqrt(var + eps), y = (x * rstd + (-rstd * mean)) * w + b
    dims = list(range(x.dim() - k, x.dim()))
    mean = x.mean(dims, keepdim=True)
    var = x.var(dims, unbiased=False, keepdim=True)
    rstd = 1 / (var + eps).sqrt()
    y = x * rstd + (-rstd * mean)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.ones(*self.normalized_shape, device=device, dtype=dtype))
            self.bias = Parameter(torch.zeros(*self.normalized_shape, device=device, dtype=dtype)) if bias else None
        else:
            self.weight = None
            self.bias = None

    def forward(self, input):
        return _f_layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f'{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, '
                f'bias={self.bias is not None if self.elementwise_affine else True}')


def _f_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.dim() < 2:
        raise RuntimeError(f'Expected at least 2 dimensions for input tensor but received {input.dim()}')
    c = input.shape[1]
    if c % num_groups != 0:
        raise RuntimeError(f'Expected number of channels in input to be divisible by num_groups, but got input of shape {input.size()} and num_groups={num_groups}')
    return _C._composite('NativeGroupNormBackward0', _group_norm, input, weight, bias, num_groups, eps)


def _group_norm(x, weight, bias, g, eps):
    n, c = x.shape[0], x.shape[1]
    xg = x.reshape(n, g, -1)
    mean = xg.mean(2, keepdim=True)
    var = xg.var(2, unbiased=False, keepdim=True)
    rstd = 1 / (var + eps).sqrt()
    y = (xg * rstd + (-rstd * mean)).reshape(x.shape)
    shape = [1, c] + [1] * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(*shape)
    if bias is not None:
        y = y + bias.reshape(*shape)
    return y


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError('num_channels must be divisible by num_groups')
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(torch.ones(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(torch.zeros(num_channels, device=device, dtype=dtype))
        else:
            self.weight = None
            self.bias = None

    def forward(self, input):
        return _f_group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f'{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}'


# ---- recurrent layers: ATen's CPU path (input projection for all steps at once, then per step
# gates = linear(h, w_hh, b_hh) + projected input) ----

class RNNBase(Module):
    _gates = 1

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError('hidden_size must be greater than zero')
        if num_layers <= 0:
            raise ValueError('num_layers must be greater than zero')
        if proj_size != 0:
            raise NotImplementedError('cudatutor: LSTM proj_size is not supported yet')
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        dirs = 2 if bidirectional else 1
        g = self._gates * hidden_size
        for layer in range(num_layers):
            for d in range(dirs):
                n_in = input_size if layer == 0 else hidden_size * dirs
                sfx = f'_l{layer}' + ('_reverse' if d == 1 else '')
                setattr(self, 'weight_ih' + sfx, Parameter(torch.empty(g, n_in, device=device, dtype=dtype)))
                setattr(self, 'weight_hh' + sfx, Parameter(torch.empty(g, hidden_size, device=device, dtype=dtype)))
                if bias:
                    setattr(self, 'bias_ih' + sfx, Parameter(torch.empty(g, device=device, dtype=dtype)))
                    setattr(self, 'bias_hh' + sfx, Parameter(torch.empty(g, device=device, dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        with torch.no_grad():
            for w in self.parameters():
                w.uniform_(-stdv, stdv)

    def extra_repr(self):
        s = f'{self.input_size}, {self.hidden_size}'
        if self.proj_size != 0:
            s += f', proj_size={self.proj_size}'
        if self.num_layers != 1:
            s += f', num_layers={self.num_layers}'
        if self.bias is not True:
            s += f', bias={self.bias}'
        if self.batch_first is not False:
            s += f', batch_first={self.batch_first}'
        if self.dropout != 0:
            s += f', dropout={self.dropout}'
        if self.bidirectional is not False:
            s += f', bidirectional={self.bidirectional}'
        return s

    def _cell(self, xw, h, c, w_hh, b_hh):
        raise NotImplementedError

    def forward(self, input, hx=None):
        if input.dim() not in (2, 3):
            raise ValueError(f'{self.mode}: Expected input to be 2D or 3D, got {input.dim()}D instead')
        batched = input.dim() == 3
        x = input if batched else input.unsqueeze(1)
        if batched and self.batch_first:
            x = x.transpose(0, 1)
        if x.shape[-1] != self.input_size:
            raise RuntimeError(f'input.size(-1) must be equal to input_size. Expected {self.input_size}, got {x.shape[-1]}')
        steps, n = x.shape[0], x.shape[1]
        dirs = 2 if self.bidirectional else 1
        lstm = self._gates == 4
        if hx is None:
            h0 = torch.zeros(self.num_layers * dirs, n, self.hidden_size, dtype=x.dtype, device=x.device)
            c0 = h0 if lstm else None
        else:
            h0, c0 = hx if lstm else (hx, None)
            if not batched:
                h0 = h0.unsqueeze(1)
                c0 = c0.unsqueeze(1) if c0 is not None else None
            want = (self.num_layers * dirs, n, self.hidden_size)
            if tuple(h0.shape) != want:
                raise RuntimeError(f'Expected hidden size {want}, got {list(h0.shape)}')
        hn, cn = [], []
        layer_in = x
        for layer in range(self.num_layers):
            outs_dir = []
            for d in range(dirs):
                sfx = f'_l{layer}' + ('_reverse' if d == 1 else '')
                w_ih = getattr(self, 'weight_ih' + sfx)
                w_hh = getattr(self, 'weight_hh' + sfx)
                b_ih = getattr(self, 'bias_ih' + sfx) if self.bias else None
                b_hh = getattr(self, 'bias_hh' + sfx) if self.bias else None
                xw = functional.linear(layer_in, w_ih, b_ih)
                k = layer * dirs + d
                h = h0[k]
                c = c0[k] if lstm else None
                outs = [None] * steps
                order = range(steps) if d == 0 else range(steps - 1, -1, -1)
                for t in order:
                    h, c = self._cell(xw[t], h, c, w_hh, b_hh)
                    outs[t] = h
                outs_dir.append(torch.stack(outs, 0) if steps else xw[:, :, :self.hidden_size] * 0)
                hn.append(h)
                cn.append(c)
            layer_in = outs_dir[0] if dirs == 1 else torch.cat(outs_dir, 2)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_in = functional.dropout(layer_in, self.dropout, True)
        out = layer_in
        h_n = torch.stack(hn, 0)
        c_n = torch.stack(cn, 0) if lstm else None
        if batched and self.batch_first:
            out = out.transpose(0, 1)
        if not batched:
            out = out.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if lstm else None
        return (out, (h_n, c_n)) if lstm else (out, h_n)


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ('tanh', 'relu'):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__('RNN_TANH' if nonlinearity == 'tanh' else 'RNN_RELU', input_size, hidden_size,
                         num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype)

    def extra_repr(self):
        s = super().extra_repr()
        if self.nonlinearity != 'tanh':
            s += f', nonlinearity={self.nonlinearity}'
        return s

    def _cell(self, xw, h, c, w_hh, b_hh):
        pre = functional.linear(h, w_hh, b_hh) + xw
        return (pre.tanh() if self.nonlinearity == 'tanh' else pre.relu()), None


class LSTM(RNNBase):
    _gates = 4

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__('LSTM', input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)

    def _cell(self, xw, h, c, w_hh, b_hh):
        gates = functional.linear(h, w_hh, b_hh) + xw
        i, f, g, o = gates.chunk(4, 1)
        i = i.sigmoid()
        f = f.sigmoid()
        g = g.tanh()
        o = o.sigmoid()
        cy = f * c + i * g
        return o * cy.tanh(), cy


class GRU(RNNBase):
    _gates = 3

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__('GRU', input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)

    def _cell(self, xw, h, c, w_hh, b_hh):
        ig = xw.chunk(3, 1)
        hg = functional.linear(h, w_hh, b_hh).chunk(3, 1)
        r = (hg[0] + ig[0]).sigmoid()
        z = (hg[1] + ig[1]).sigmoid()
        n = (ig[2] + hg[2] * r).tanh()
        return (h - n) * z + n, None


# ---- 1-d convolution and pooling, as their 2-d forms over a height of 1 ----

def _single(v):
    if isinstance(v, (tuple, list)):
        return tuple(v)
    return (v,)


def _f_conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        raise NotImplementedError("cudatutor does not support string padding ('same'/'valid') in conv1d yet")
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 3:
        raise RuntimeError(f'Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: {list(input.shape)}')
    y = functional.conv2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, _single(stride)[0]),
                          (0, _single(padding)[0]), (1, _single(dilation)[0]), groups)
    y = y.squeeze(2)
    return y.squeeze(0) if unbatched else y


class Conv1d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        super().__init__()
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride)
        self.padding = padding if isinstance(padding, str) else _single(padding)
        self.dilation = _single(dilation)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(torch.empty(out_channels, in_channels // groups, self.kernel_size[0],
                                            device=device, dtype=dtype))
        self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype)) if bias else None
        fan_in = (in_channels // groups) * self.kernel_size[0]
        if self.weight.numel() > 0:
            gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
            bound = math.sqrt(3.0) * gain / math.sqrt(fan_in)
            with torch.no_grad():
                self.weight.uniform_(-bound, bound)
        if self.bias is not None and fan_in != 0:
            bound = 1 / math.sqrt(fan_in)
            with torch.no_grad():
                self.bias.uniform_(-bound, bound)

    def forward(self, input):
        return _f_conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        s = f'{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}'
        if self.padding != (0,):
            s += f', padding={self.padding}'
        if self.dilation != (1,):
            s += f', dilation={self.dilation}'
        if self.groups != 1:
            s += f', groups={self.groups}'
        if self.bias is None:
            s += ', bias=False'
        return s


def _f_max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    k = _single(kernel_size)[0]
    s = k if stride is None or stride == [] else _single(stride)[0]
    r = functional.max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding)[0]),
                              (1, _single(dilation)[0]), ceil_mode=ceil_mode, return_indices=return_indices)
    if return_indices:
        return r[0].squeeze(-2), r[1].squeeze(-2)
    return r.squeeze(-2)


def _f_avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    k = _single(kernel_size)[0]
    s = k if stride is None or stride == [] else _single(stride)[0]
    return functional.avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _single(padding)[0]), ceil_mode,
                                 count_include_pad).squeeze(-2)


def _adaptive_1d(input, output_size, reduce):
    n = input.shape[-1]
    out = _single(output_size)[0]
    parts = []
    for i in range(out):
        a = (i * n) // out
        b = -((-(i + 1) * n) // out)
        parts.append(reduce(input[..., a:b]))
    return torch.stack(parts, -1)


def _f_adaptive_max_pool1d(input, output_size, return_indices=False):
    if return_indices:
        raise NotImplementedError('cudatutor: adaptive_max_pool1d(return_indices=True) is not supported yet')
    return _adaptive_1d(input, output_size, lambda t: t.amax(-1))


def _f_adaptive_avg_pool1d(input, output_size):
    return _adaptive_1d(input, output_size, lambda t: t.mean(-1))


class MaxPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return _f_max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                             self.return_indices)

    def extra_repr(self):
        return (f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, '
                f'dilation={self.dilation}, ceil_mode={self.ceil_mode}')


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if (stride is not None) else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return _f_avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class AdaptiveMaxPool1d(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return _f_adaptive_max_pool1d(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f'output_size={self.output_size}'


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return _f_adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self):
        return f'output_size={self.output_size}'


# ---- channel dropout: one Bernoulli draw per (sample, channel), as ATen's feature dropout ----

def _f_dropout2d(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    if not training or p == 0.0:
        return input
    if input.dim() not in (3, 4):
        raise NotImplementedError('cudatutor: dropout2d supports 3-D and 4-D inputs only')
    if p == 1.0:
        return input * torch.zeros_like(input)
    shape = list(input.shape[:-2]) + [1, 1]
    noise = torch.empty(*shape, dtype=input.dtype, device=input.device)
    noise.bernoulli_(1 - p)
    noise.div_(1 - p)
    out = input * noise
    if inplace:
        input.copy_(out)
        return input
    return out


class Dropout2d(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return _f_dropout2d(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f'p={self.p}, inplace={self.inplace}'


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['batch_norm', 'layer_norm', 'group_norm', 'conv1d', 'max_pool1d', 'avg_pool1d',
                                   'adaptive_max_pool1d', 'adaptive_avg_pool1d', 'dropout2d']


class GELU(Module):
    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return functional.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


# ---- cross_entropy: k-dimensional inputs, class-probability targets and label smoothing around
# the native (N, C) / (C,) kernel, as ATen's cross_entropy composes them ----

_native_cross_entropy = functional.cross_entropy
_native_nll_loss = functional.nll_loss


def _legacy_reduction(size_average, reduce):
    if size_average is None and reduce is None:
        return None
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return 'none'
    return 'mean' if size_average else 'sum'


def _ce_smoothed(input, target, weight, ignore_index, reduction, label_smoothing):
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.shape[class_dim]
    lsm = input.log_softmax(class_dim)
    nll = _native_nll_loss(lsm, target, weight=weight, ignore_index=ignore_index, reduction=reduction)
    ignore = target == ignore_index
    if weight is not None:
        wshape = [1] * input.dim()
        wshape[class_dim] = n_classes
        smooth = -(lsm * weight.reshape(*wshape)).sum(class_dim)
    else:
        smooth = -lsm.sum(class_dim)
    smooth = smooth.masked_fill(ignore, 0.0)
    if reduction == 'mean':
        if weight is not None:
            ret = smooth.sum() / weight.index_select(0, target.masked_select(~ignore).flatten()).sum()
        else:
            ret = smooth.sum() / (~ignore).sum()
    elif reduction == 'sum':
        ret = smooth.sum()
    else:
        ret = smooth
    return (1 - label_smoothing) * nll + ret * (label_smoothing / n_classes)


def _f_cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                     reduction='mean', label_smoothing=0.0):
    legacy = _legacy_reduction(size_average, reduce)
    if legacy is not None:
        reduction = legacy
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if label_smoothing < 0.0 or label_smoothing > 1.0:
        raise RuntimeError(f'label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}')
    if isinstance(input, torch.Tensor) and isinstance(target, torch.Tensor) and input.shape == target.shape and input.dim() >= 1:
        # class probabilities
        if not target.is_floating_point():
            raise RuntimeError(f'Expected floating point type for target with class probabilities, got {_SCALAR_NAMES.get(target.dtype, target.dtype)}')
        if ignore_index >= 0:
            raise RuntimeError('ignore_index is not supported for floating point target')
        class_dim = 0 if input.dim() == 1 else 1
        n_classes = input.shape[class_dim]
        lsm = input.log_softmax(class_dim)
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        if weight is not None:
            wshape = [1] * input.dim()
            wshape[class_dim] = n_classes
            lsm = lsm * weight.reshape(*wshape)
        loss = -(lsm * target)
        if reduction == 'none':
            return loss.sum(class_dim)
        if reduction == 'sum':
            return loss.sum()
        return loss.sum() / (input.numel() // n_classes)
    if isinstance(input, torch.Tensor) and input.dim() > 2:
        n, c = input.shape[0], input.shape[1]
        want = [n] + list(input.shape[2:])
        if list(target.shape) != want:
            raise RuntimeError(f'Expected target size {want}, got {list(target.shape)}')
        x2 = input.movedim(1, -1).reshape(-1, c)
        t2 = target.reshape(-1)
        if label_smoothing > 0:
            r = _ce_smoothed(x2, t2, weight, ignore_index, reduction, label_smoothing)
        else:
            r = _native_cross_entropy(x2, t2, weight=weight, ignore_index=ignore_index, reduction=reduction)
        return r.reshape(*want) if reduction == 'none' else r
    if label_smoothing > 0:
        return _ce_smoothed(input, target, weight, ignore_index, reduction, label_smoothing)
    return _native_cross_entropy(input, target, weight=weight, ignore_index=ignore_index, reduction=reduction)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['cross_entropy']


# ---- transposed convolution (a stride-1 convolution over the input spread out by the stride,
# with the kernel flipped), padding and nearest upsampling ----

def _f_pad(input, pad, mode='constant', value=None):
    if mode != 'constant':
        raise NotImplementedError(f"cudatutor: F.pad mode='{mode}' is not supported yet")
    pad = list(pad)
    if len(pad) % 2 != 0:
        raise RuntimeError('Padding length must be divisible by 2')
    if len(pad) // 2 > input.dim():
        raise RuntimeError('Padding length should be less than or equal to two times the input dimension but got padding length ' + str(len(pad)) + ' and input of dimension ' + str(input.dim()))
    fill = 0.0 if value is None else value
    x = input
    for k in range(len(pad) // 2):
        d = input.dim() - 1 - k
        lo, hi = pad[2 * k], pad[2 * k + 1]
        n = x.shape[d]
        if lo < 0:
            x = x.narrow(d, -lo, n + lo)
            lo = 0
        n = x.shape[d]
        if hi < 0:
            x = x.narrow(d, 0, n + hi)
            hi = 0
        parts = []
        if lo > 0:
            shape = list(x.shape)
            shape[d] = lo
            parts.append(torch.full(shape, fill, dtype=x.dtype, device=x.device))
        parts.append(x)
        if hi > 0:
            shape = list(x.shape)
            shape[d] = hi
            parts.append(torch.full(shape, fill, dtype=x.dtype, device=x.device))
        if len(parts) > 1:
            x = torch.cat(parts, d)
    return x


def _f_conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if groups != 1:
        raise NotImplementedError('cudatutor: conv_transpose2d with groups > 1 is not supported yet')
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 4:
        raise RuntimeError(f'Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: {list(input.shape)}')
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(f'Given transposed=1, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have {weight.shape[0]} channels, but got {x.shape[1]} channels instead')
    s, p, op, dl = _pair(stride), _pair(padding), _pair(output_padding), _pair(dilation)
    n, c, h, w = x.shape
    kh, kw = weight.shape[2], weight.shape[3]
    # spread the input out by the stride (zeros between its elements)
    if s != (1, 1):
        hs, ws = (h - 1) * s[0] + 1, (w - 1) * s[1] + 1
        z = torch.zeros(n, c, hs, ws, dtype=x.dtype, device=x.device)
        z[:, :, ::s[0], ::s[1]] = x
        x = z
    ph = dl[0] * (kh - 1) - p[0]
    pw = dl[1] * (kw - 1) - p[1]
    x = _f_pad(x, (pw, pw + op[1], ph, ph + op[0]))
    wt = weight.flip([2, 3]).transpose(0, 1)
    y = functional.conv2d(x, wt, bias, 1, 0, dl, 1)
    return y.squeeze(0) if unbatched else y


class ConvTranspose2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__()
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)
        self.padding = _pair(padding)
        self.dilation = _pair(dilation)
        self.output_padding = _pair(output_padding)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(torch.empty(in_channels, out_channels // groups, *self.kernel_size,
                                            device=device, dtype=dtype))
        self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype)) if bias else None
        # _ConvNd.reset_parameters: kaiming_uniform_(a=sqrt(5)) with fan_in from the weight's dim 1
        fan_in = (out_channels // groups) * self.kernel_size[0] * self.kernel_size[1]
        if self.weight.numel() > 0:
            gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
            bound = math.sqrt(3.0) * gain / math.sqrt(fan_in)
            with torch.no_grad():
                self.weight.uniform_(-bound, bound)
        if self.bias is not None and fan_in != 0:
            bound = 1 / math.sqrt(fan_in)
            with torch.no_grad():
                self.bias.uniform_(-bound, bound)

    def forward(self, input, output_size=None):
        return _f_conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                   self.groups, self.dilation)

    def extra_repr(self):
        s = f'{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}'
        if self.padding != (0, 0):
            s += f', padding={self.padding}'
        if self.dilation != (1, 1):
            s += f', dilation={self.dilation}'
        if self.output_padding != (0, 0):
            s += f', output_padding={self.output_padding}'
        if self.groups != 1:
            s += f', groups={self.groups}'
        if self.bias is None:
            s += ', bias=False'
        return s


def _f_interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                   recompute_scale_factor=None, antialias=False):
    if mode != 'nearest':
        raise NotImplementedError(f"cudatutor: interpolate mode='{mode}' is not supported yet")
    nd = input.dim() - 2
    if nd < 1:
        raise ValueError(f'Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got {mode})')
    if size is None and scale_factor is None:
        raise ValueError('either size or scale_factor should be defined')
    if size is not None and scale_factor is not None:
        raise ValueError('only one of size or scale_factor should be defined')
    ins = list(input.shape[2:])
    if size is not None:
        outs = [size] * nd if isinstance(size, int) else list(size)
        scales = [i / o for i, o in zip(ins, outs)]
    else:
        sf = [scale_factor] * nd if not isinstance(scale_factor, (tuple, list)) else list(scale_factor)
        outs = [int(math.floor(i * f)) for i, f in zip(ins, sf)]
        scales = [1.0 / f for f in sf]
    x = input
    for k in range(nd):
        d = 2 + k
        idx = [min(int(math.floor(o * scales[k])), ins[k] - 1) for o in range(outs[k])]
        x = x.index_select(d, torch.tensor(idx, dtype=torch.int64, device=input.device))
    return x


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        self.scale_factor = float(scale_factor) if scale_factor is not None and not isinstance(scale_factor, tuple) else scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return _f_interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = 'scale_factor=' + repr(self.scale_factor)
        else:
            info = 'size=' + repr(self.size)
        return info + ', mode=' + repr(self.mode)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['pad', 'conv_transpose2d', 'interpolate']

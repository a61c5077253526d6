# torch.nn for cudatutor: modules written in Python over the native ops.
import math
import torch
import torch._C as _C
import torch._F as functional

Parameter = _C.Parameter


def _is_param(v):
    return _C.is_parameter(v)


class Module:
    def __init__(self):
        self.training = True

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

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

    def named_modules(self):
        return iter([('', self)] + [(k, m) for k, m in self._child_list()])

    def named_parameters(self, prefix='', recurse=True):
        return iter(self._param_list(prefix, recurse))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._param_list(recurse=recurse)])

    def buffers(self):
        return iter([v for v in self.__dict__.values() if isinstance(v, torch.Tensor) and not _is_param(v)])

    def _apply(self, fn):
        for k, v in list(self.__dict__.items()):
            if _is_param(v):
                self.__dict__[k] = Parameter(fn(v), v.requires_grad)
            elif isinstance(v, torch.Tensor):
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

    def state_dict(self):
        return {k: p.detach() for k, p in self._param_list()}

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


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            self.__dict__[str(i)] = m

    def forward(self, input):
        for _, m in self._child_list():
            input = m(input)
        return input

    def __getitem__(self, i):
        return [m for _, m in self._child_list()][i]

    def __len__(self):
        return len(self._child_list())

    def __iter__(self):
        return iter([m for _, m in self._child_list()])

    def append(self, m):
        self.__dict__[str(len(self))] = m
        return self


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


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weight = Parameter(torch.empty(num_embeddings, embedding_dim, device=device, dtype=dtype).normal_(0.0, 1.0))

    def forward(self, input):
        return functional.embedding(input, self.weight)

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


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return functional.softmax(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
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
        return functional.mse_loss(input, target, reduction=self.reduction)


class L1Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return functional.l1_loss(input, target, reduction=self.reduction)


class BCELoss(Module):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, target):
        return functional.binary_cross_entropy(input, target, weight=self.weight,
                                               reduction=self.reduction)


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
        if device_ids is None:
            device_ids = list(range(torch.cuda.device_count()))
        self.module = module
        self.device_ids = [_device_index(d) for d in device_ids]
        self.output_device = self.device_ids[0] if output_device is None else _device_index(output_device)
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        src = torch.device('cuda', self.device_ids[0])
        for p in self.module._param_list():
            p = p[1]
            if p.device != src:
                raise RuntimeError(f'module must have its parameters and buffers on device {src} (device_ids[0]) but found one of them on device: {p.device}')
        if len(self.device_ids) == 1:
            return self.module(*inputs, **kwargs)
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

# torch.nn for cudatutor: modules written in Python over the native ops.
import math
import torch
import torch._C as _C
import torch._F as functional

Parameter = _C.Parameter
import collections as _coll  # _coll.OrderedDict where used: importing the name built the class at import


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


def _zero_grad(p, set_to_none):
    # one parameter's step of Module.zero_grad and Optimizer.zero_grad: drop the gradient, or
    # zero it in place (detached from any graph that made it)
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
        return
    if p.grad.grad_fn is not None:
        p.grad.detach_()
    else:
        p.grad.requires_grad_(False)
    p.grad.zero_()


def _typename(o):
    # torch.typename
    if isinstance(o, torch.Tensor):
        return o.type()
    module = ''
    m = getattr(type(o), '__module__', None)
    if m is not None and m != 'builtins':
        module = m + '.'
    return module + type(o).__name__


def _addindent(s_, numSpaces):
    s = s_.split('\n')
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * ' ') + line for line in s]
    s = '\n'.join(s)
    s = first + '\n' + s
    return s


class Module:
    # torch/nn/modules/module.py. Parameters, buffers and submodules are registered in
    # `_parameters`, `_buffers` and `_modules` (which give every listing, state_dict, repr and
    # `.to()` PyTorch's order and membership) and are also kept in the instance __dict__, so
    # that reading `self.weight` in a forward is a plain attribute lookup; every write goes
    # through __setattr__ / register_* / __delattr__, which keep the two in step.
    _version = 1
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if self.call_super_init is False and bool(args):
            raise TypeError(f'{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were'
                            ' given')
        d = self.__dict__
        d['training'] = True
        d['_parameters'] = {}
        d['_buffers'] = {}
        d['_non_persistent_buffers_set'] = set()
        d['_modules'] = {}

    def _set_member(self, name, value):
        self.__dict__[name] = value

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get('_parameters')
        if _is_param(value):
            if params is None:
                raise AttributeError('cannot assign parameters before Module.__init__() call')
            self._remove_member(name, params=False)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                '(torch.nn.Parameter or None expected)')
            self.register_parameter(name, value)
        else:
            modules = d.get('_modules')
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError('cannot assign module before Module.__init__() call')
                self._remove_member(name, modules=False)
                modules[name] = value
                d[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                    '(torch.nn.Module or None expected)')
                modules[name] = value
                d[name] = value
            else:
                buffers = d.get('_buffers')
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                        '(torch.nn.Buffer, torch.Tensor or None expected)')
                    self.register_buffer(name, value, name not in d['_non_persistent_buffers_set'])
                else:
                    object.__setattr__(self, name, value)

    def _remove_member(self, name, params=True, modules=True):
        d = self.__dict__
        if params and name in d.get('_parameters', ()):
            del d['_parameters'][name]
        if name in d.get('_buffers', ()):
            del d['_buffers'][name]
            d['_non_persistent_buffers_set'].discard(name)
        if modules and name in d.get('_modules', ()):
            del d['_modules'][name]

    def __delattr__(self, name):
        d = self.__dict__
        if name in d.get('_parameters', ()):
            del d['_parameters'][name]
            d.pop(name, None)
        elif name in d.get('_buffers', ()):
            del d['_buffers'][name]
            d['_non_persistent_buffers_set'].discard(name)
            d.pop(name, None)
        elif name in d.get('_modules', ()):
            del d['_modules'][name]
            d.pop(name, None)
        else:
            object.__delattr__(self, name)

    def __getattr__(self, name):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

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
            hooks = _coll.OrderedDict()
            self.__dict__[kind] = hooks
        return _RemovableHandle(hooks, hook)

    def register_forward_hook(self, hook):
        return self._add_hook('_forward_hooks', hook)

    def register_forward_pre_hook(self, hook):
        return self._add_hook('_forward_pre_hooks', hook)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ---- registration
    def register_buffer(self, name, tensor, persistent=True):
        d = self.__dict__
        if '_buffers' not in d:
            raise AttributeError('cannot assign buffer before Module.__init__() call')
        elif not isinstance(name, str):
            raise TypeError(f'buffer name should be a string. Got {_typename(name)}')
        elif '.' in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == '':
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in d['_buffers']:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            '(torch Tensor or None required)')
        d['_buffers'][name] = tensor
        d[name] = tensor
        if persistent:
            d['_non_persistent_buffers_set'].discard(name)
        else:
            d['_non_persistent_buffers_set'].add(name)

    def register_parameter(self, name, param):
        d = self.__dict__
        if '_parameters' not in d:
            raise AttributeError('cannot assign parameter before Module.__init__() call')
        elif not isinstance(name, str):
            raise TypeError(f'parameter name should be a string. Got {_typename(name)}')
        elif '.' in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == '':
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in d['_parameters']:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            d['_parameters'][name] = None
        elif not _is_param(param):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            '(torch.nn.Parameter or None required)')
        elif param.grad_fn:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' "
                             'as a function of another Tensor, compute the value in '
                             'the forward() method.')
        else:
            d['_parameters'][name] = param
        d[name] = param

    def add_module(self, name, module):
        d = self.__dict__
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f'{_typename(module)} is not a Module subclass')
        elif not isinstance(name, str):
            raise TypeError(f'module name should be a string. Got {_typename(name)}')
        elif hasattr(self, name) and name not in d['_modules']:
            raise KeyError(f"attribute '{name}' already exists")
        elif '.' in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == '':
            raise KeyError('module name can\'t be empty string ""')
        d['_modules'][name] = module
        d[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == '':
            return self
        mod = self
        for item in target.split('.'):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + ' has no attribute `' + item + '`')
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError('`' + item + '` is not an nn.Module')
        return mod

    def set_submodule(self, target, module, strict=False):
        if target == '':
            raise ValueError('Cannot set the submodule without a target name!')
        atoms = target.split('.')
        if not isinstance(module, Module):
            raise ValueError('`' + 'module' + f'` is not an nn.Module, found {type(module)}')
        if len(atoms) == 1:
            parent = self
        else:
            parent = self.get_submodule('.'.join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + ' has no attribute `' + atoms[-1] + '`')
        if hasattr(parent, atoms[-1]):
            mod = getattr(parent, atoms[-1])
            if not isinstance(mod, Module):
                raise AttributeError('`' + atoms[-1] + '` is not an nn.Module')
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition('.')
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + ' has no attribute `' + param_name + '`')
        param = getattr(mod, param_name)
        if not _is_param(param):
            raise AttributeError('`' + param_name + '` is not an nn.Parameter')
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition('.')
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + ' has no attribute `' + buffer_name + '`')
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError('`' + buffer_name + '` is not a buffer')
        return buffer

    # ---- listings (the order of PyTorch's _named_members: modules in pre-order, each one's
    # own members in registration order)
    def _child_list(self):
        return [(k, m) for k, m in self._modules.items() if m is not None]

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        out = []
        if memo is None:
            memo = set()

        def walk(m, pre):
            if m in memo:
                return
            if remove_duplicate:
                memo.add(m)
            out.append((pre, m))
            for name, c in m._modules.items():
                if c is None:
                    continue
                walk(c, pre + ('.' if pre else '') + name)
        walk(self, prefix)
        return iter(out)

    def _named_members(self, kind, prefix='', recurse=True, remove_duplicate=True):
        if kind not in self.__dict__:
            getattr(self, kind)
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        out = []
        for module_prefix, module in modules:
            d = module.__dict__
            # a module whose __init__ skipped Module.__init__ has no registry: PyTorch's
            # AttributeError ('Net' object has no attribute '_parameters')
            members = d[kind] if kind in d else getattr(module, kind)
            for k, v in members.items():
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                out.append((module_prefix + ('.' if module_prefix else '') + k, v))
        return out

    def _param_list(self, prefix='', recurse=True):
        return self._named_members('_parameters', prefix, recurse, False)

    def _buffer_list(self, prefix='', recurse=True):
        return self._named_members('_buffers', prefix, recurse, False)

    def _unique_params(self, prefix='', recurse=True):
        return self._named_members('_parameters', prefix, recurse, True)

    def _module_list(self):
        return [m for _, m in self.named_modules()]

    # PyTorch returns generators here; iterators over lists behave the same for next()/for/list()
    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members('_parameters', prefix, recurse, remove_duplicate))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._named_members('_parameters', '', recurse, True)])

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members('_buffers', prefix, recurse, remove_duplicate))

    def buffers(self, recurse=True):
        return iter([b for _, b in self._named_members('_buffers', '', recurse, True)])

    def named_children(self):
        memo = set()
        out = []
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                out.append((name, module))
        return iter(out)

    def children(self):
        return iter([m for _, m in self.named_children()])

    def modules(self, remove_duplicate=True):
        return iter([m for _, m in self.named_modules(remove_duplicate=remove_duplicate)])

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- state_dict
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        if len(args) > 0:
            _C.warn('Positional args are being deprecated, use kwargs instead. Refer to '
                    'https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict'
                    ' for details.', category='FutureWarning')
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == '':
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = _coll.OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        local_state = {}
        for k, v in self._parameters.items():
            if v is not None:
                local_state[k] = v
        for k, v in self._buffers.items():
            if v is not None and k not in self._non_persistent_buffers_set:
                local_state[k] = v
        assign = local_metadata.get('assign_to_params_buffers', False)
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, torch.Tensor):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                      f'Tensor-like object from checkpoint but received {type(input_param)}')
                    continue
                if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append(f'size mismatch for {key}: copying a param with shape {input_param.shape} from '
                                      f'checkpoint, the shape in current model is {param.shape}.')
                    continue
                try:
                    with torch.no_grad():
                        if assign:
                            if _is_param(param):
                                if not _is_param(input_param):
                                    input_param = Parameter(input_param, requires_grad=param.requires_grad)
                                else:
                                    input_param.requires_grad_(param.requires_grad)
                            setattr(self, name, input_param)
                        else:
                            param.copy_(input_param)
                except Exception as ex:
                    error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model '
                                      f'are {param.size()} and whose dimensions in the checkpoint are '
                                      f'{input_param.size()}, an exception occurred : {ex.args}.')
            elif strict:
                missing_keys.append(key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split('.', 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, (dict, _coll.OrderedDict)):
            raise TypeError(f'Expected state_dict to be dict-like, got {type(state_dict)}.')
        missing_keys = []
        unexpected_keys = []
        error_msgs = []
        state_dict = _coll.OrderedDict(state_dict)
        metadata = {'assign_to_params_buffers': assign} if assign else {}

        def load(module, local_state_dict, prefix=''):
            module._load_from_state_dict(local_state_dict, prefix, metadata, True, missing_keys, unexpected_keys,
                                         error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + '.'
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)
        load(self, state_dict)
        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(0, 'Unexpected key(s) in state_dict: {}. '.format(
                    ', '.join(f'"{k}"' for k in unexpected_keys)))
            if len(missing_keys) > 0:
                error_msgs.insert(0, 'Missing key(s) in state_dict: {}. '.format(
                    ', '.join(f'"{k}"' for k in missing_keys)))
        if len(error_msgs) > 0:
            raise RuntimeError('Error(s) in loading state_dict for {}:\n\t{}'.format(
                self.__class__.__name__, '\n\t'.join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- conversions
    def _apply(self, fn, recurse=True):
        if recurse:
            for module in self.children():
                module._apply(fn)
        d = self.__dict__
        for key, param in list(d['_parameters'].items()):
            if param is None:
                continue
            with torch.no_grad():
                param_applied = fn(param)
            param_grad = param.grad
            # PyTorch keeps the Parameter object and swaps its data (param.data = ...)
            param.data = param_applied
            if param_grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param_grad)
                param.grad = grad_applied
        for key, buf in list(d['_buffers'].items()):
            if buf is not None:
                new = fn(buf)
                d['_buffers'][key] = new
                d[key] = new
        return self

    def to(self, *args, **kwargs):
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError('nn.Module.to only accepts floating point or complex '
                            f'dtypes, but got desired dtype={dtype}')

        def convert(t):
            kw = {}
            if device is not None:
                kw['device'] = device
            if dtype is not None and t.is_floating_point():
                kw['dtype'] = dtype
            if non_blocking:
                kw['non_blocking'] = True
            return t.to(**kw) if kw else t
        return self._apply(convert)

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def share_memory(self):
        return self

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            _zero_grad(p, set_to_none)

    # ---- printing
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ''

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split('\n')
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append('(' + key + '): ' + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        keys = module_attrs + attrs
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(set(keys))


_DTYPE = type(torch.float32)


def _parse_to(*args, **kwargs):
    # torch._C._nn._parse_to: (device, dtype, non_blocking) from .to()'s overloads
    device = kwargs.get('device')
    dtype = kwargs.get('dtype')
    non_blocking = kwargs.get('non_blocking', False)
    for a in args:
        if isinstance(a, _DTYPE):
            dtype = a
        elif isinstance(a, torch.Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, bool):
            non_blocking = a
        elif a is not None:
            device = a
    return device, dtype, non_blocking


class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], _coll.OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        size = len(self)
        if not isinstance(idx, int):
            idx = idx.__index__()
        if not -size <= idx < size:
            raise IndexError(f'index {idx} is out of range')
        idx %= size
        return list(iterator)[idx]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(_coll.OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx, module):
        key = self._get_item_by_idx(self._modules.keys(), idx)
        return setattr(self, key, module)

    def _renumber(self):
        mods = list(self._modules.values())
        for k in list(self._modules.keys()):
            self.__dict__.pop(k, None)
        self.__dict__['_modules'] = {}
        for i, m in enumerate(mods):
            self._modules[str(i)] = m
            self.__dict__[str(i)] = m

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(self._modules.keys(), idx)
            delattr(self, key)
        self._renumber()

    def __len__(self):
        return len(self._modules)

    def __add__(self, other):
        if isinstance(other, Sequential):
            ret = Sequential()
            for layer in self:
                ret.append(layer)
            for layer in other:
                ret.append(layer)
            return ret
        raise ValueError('add operator supports only objects '
                         f'of Sequential class, but {str(type(other))} is given.')

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def __iadd__(self, other):
        if isinstance(other, Sequential):
            offset = len(self)
            for i, module in enumerate(other):
                self.add_module(str(i + offset), module)
            return self
        raise ValueError('add operator supports only objects '
                         f'of Sequential class, but {str(type(other))} is given.')

    def __mul__(self, other):
        if not isinstance(other, int):
            raise TypeError(f'unsupported operand type(s) for *: {type(self)} and {type(other)}')
        elif other <= 0:
            raise ValueError(f'Non-positive multiplication factor {other} for {type(self)}')
        combined = Sequential()
        offset = 0
        for _ in range(other):
            for module in self:
                combined.add_module(str(offset), module)
                offset += 1
        return combined

    def __rmul__(self, other):
        return self.__mul__(other)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f'module should be of type: {Module}')
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f'Index out of range: {index}')
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
            self.__dict__[str(i)] = self._modules[str(i)]
        self._modules[str(index)] = module
        self.__dict__[str(index)] = module
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _get_abs_string_index(self, idx):
        if not isinstance(idx, int):
            idx = idx.__index__()
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f'index {idx} is out of range')
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx, module):
        idx = self._get_abs_string_index(idx)
        return setattr(self, str(idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        Sequential._renumber(self)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        combined = ModuleList()
        for i, module in enumerate(list(self) + list(other)):
            combined.add_module(str(i), module)
        return combined

    def __repr__(self):
        list_of_reprs = [repr(item) for item in self]
        if len(list_of_reprs) == 0:
            return self._get_name() + '()'
        start_end_indices = [[0, 0]]
        repeated_blocks = [list_of_reprs[0]]
        for i, r in enumerate(list_of_reprs[1:], 1):
            if r == repeated_blocks[-1]:
                start_end_indices[-1][1] += 1
                continue
            start_end_indices.append([i, i])
            repeated_blocks.append(r)
        lines = []
        main_str = self._get_name() + '('
        for (start_id, end_id), b in zip(start_end_indices, repeated_blocks):
            local_repr = f'({start_id}): {b}'
            if start_id != end_id:
                n = end_id - start_id + 1
                local_repr = f'({start_id}-{end_id}): {n} x {b}'
            local_repr = _addindent(local_repr, 2)
            lines.append(local_repr)
        main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str

    def insert(self, index, module):
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
            self.__dict__[str(i)] = self._modules[str(i)]
        self._modules[str(index)] = module
        self.__dict__[str(index)] = module

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def extend(self, modules):
        if isinstance(modules, (int, float, bool)) or modules is None:
            raise TypeError('ModuleList.extend should be called with an iterable, but got ' + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]
        self.__dict__.pop(key, None)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules))

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        for k in list(self._modules):
            self.__dict__.pop(k, None)
        self._modules.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        if isinstance(modules, (int, float, bool)) or modules is None:
            raise TypeError('ModuleDict.update should be called with an iterable of key/value pairs, but got '
                            + type(modules).__name__)
        if isinstance(modules, (dict, _coll.OrderedDict, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
        else:
            for j, m in enumerate(modules):
                if not len(m) == 2:
                    raise ValueError('ModuleDict update sequence element #' + str(j) + ' has length '
                                     + str(len(m)) + '; 2 is required')
                self[m[0]] = m[1]


class ParameterList(Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx):
        if not isinstance(idx, int):
            idx = idx.__index__()
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f'index {idx} is out of range')
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            out = self.__class__()
            for i in range(start, stop, step):
                out.append(self[i])
            return out
        idx = self._get_abs_string_index(idx)
        return getattr(self, str(idx))

    def __setitem__(self, idx, param):
        idx = self._get_abs_string_index(idx)
        if isinstance(param, torch.Tensor) and not _is_param(param):
            param = Parameter(param)
        return setattr(self, str(idx), param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def append(self, value):
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        if isinstance(values, torch.Tensor) or isinstance(values, (int, float, bool)) or values is None:
            raise TypeError('ParameterList.extend should be called with an iterable, but got '
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        child_lines = []
        for k, p in enumerate(self):
            if isinstance(p, torch.Tensor):
                size_str = 'x'.join(str(size) for size in p.size())
                device_str = f' ({p.device})' if p.device.type == 'cuda' else ''
                parastr = '{} containing: [{} of size {}{}]'.format(
                    'Parameter' if _is_param(p) else 'Tensor', p.dtype, size_str, device_str)
                child_lines.append('  (' + str(k) + '): ' + parastr)
            else:
                child_lines.append('  (' + str(k) + '): Object of type: ' + type(p).__name__)
        return '\n'.join(child_lines)

    def __call__(self, *args, **kwargs):
        raise RuntimeError('ParameterList should not be called.')


class ParameterDict(Module):
    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError('Index given to ParameterDict cannot be used as a key as it is not a string '
                            f'(type is \'{type(key).__name__}\'). Open an issue on github if you need '
                            'non-string keys.')
        return key

    def __getitem__(self, key):
        attr = self._key_to_attr(key)
        return getattr(self, attr)

    def __setitem__(self, key, value):
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, torch.Tensor) and not _is_param(value):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key):
        del self._keys[key]
        attr = self._key_to_attr(key)
        delattr(self, attr)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(list(self._keys))

    def __contains__(self, key):
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def values(self):
        return [self[k] for k in self._keys]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def update(self, parameters):
        if isinstance(parameters, (dict, _coll.OrderedDict, ParameterDict)):
            for key, parameter in parameters.items():
                self[key] = parameter
        else:
            for j, p in enumerate(parameters):
                if not len(p) == 2:
                    raise ValueError('ParameterDict update sequence element #' + str(j) + ' has length '
                                     + str(len(p)) + '; 2 is required')
                self[p[0]] = p[1]

    def extra_repr(self):
        child_lines = []
        for k, p in self.items():
            if isinstance(p, torch.Tensor):
                size_str = 'x'.join(str(size) for size in p.size())
                device_str = f' ({p.device})' if p.device.type == 'cuda' else ''
                parastr = '{} containing: [{} of size {}{}]'.format(
                    'Parameter' if _is_param(p) else 'Tensor', _typename(p), size_str, device_str)
                child_lines.append('  (' + str(k) + '): ' + parastr)
            else:
                child_lines.append('  (' + str(k) + '): Object of type: ' + type(p).__name__)
        return '\n'.join(child_lines)

    def __call__(self, input):
        raise RuntimeError('ParameterDict should not be called.')


def _empty_weight_and_bias(module, weight_shape, bias, out_features, device, dtype):
    # Linear's, Bilinear's and the convolutions' parameters, uninitialised until their
    # reset_parameters: the weight, then a bias of out_features or a registered None
    module.weight = Parameter(torch.empty(weight_shape, device=device, dtype=dtype))
    if bias:
        module.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
    else:
        module.register_parameter('bias', None)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        _empty_weight_and_bias(self, (out_features, in_features), bias, out_features, device, dtype)
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


class _ConvNd(Module):
    # torch/nn/modules/conv.py's _ConvNd: one __init__ (its checks in its order and words), one
    # reset_parameters and one extra_repr for every convolution and transposed convolution module.
    # The sizes arrive as tuples of the module's dimensionality (its _single/_pair/_triple).
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        if isinstance(padding, str):
            # PyTorch formats a set here; CPython's string hashing orders it per process, and
            # this is the order most runs of 2.15 print
            if padding not in ('same', 'valid'):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == 'same' and any(st != 1 for st in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in ('zeros', 'reflect', 'replicate', 'circular'):
            raise ValueError("padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, "
                             f"but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's amounts (last dimension first) for a padding_mode other than 'zeros'
        if isinstance(padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == 'same':
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = [v for v in reversed(padding) for _ in range(2)]
        if transposed:
            shape = (in_channels, out_channels // groups) + tuple(kernel_size)
        else:
            shape = (out_channels, in_channels // groups) + tuple(kernel_size)
        _empty_weight_and_bias(self, shape, bias, out_channels, device, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        # init.kaiming_uniform_(weight, a=sqrt(5)), then the bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in))
        # (bound 0 for an empty fan-in: the draw still happens)
        fan_in = self.weight.shape[1] * math.prod(self.weight.shape[2:])
        with torch.no_grad():
            if self.weight.numel() > 0:
                gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
                std = gain / math.sqrt(fan_in)
                bound = math.sqrt(3.0) * std
                self.weight.uniform_(-bound, bound)
            if self.bias is not None:
                bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
                self.bias.uniform_(-bound, bound)

    def _padded_by_mode(self, input):
        # _conv_forward for padding_mode 'reflect'/'replicate'/'circular': F.pad first, then a
        # convolution without padding
        return _f_pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)

    def forward(self, input):
        # PyTorch's Conv1d/2d/3d.forward (a transposed convolution has its own)
        return self._conv_forward(input, self.weight, self.bias)

    def _conv_forward(self, input, weight, bias):
        # Conv1d's and Conv3d's, each through its _conv_function (PyTorch writes it out in each
        # class); Conv2d has its own, which pads for padding='same'
        if self.padding_mode != 'zeros':
            return self._conv_function(self._padded_by_mode(input), weight, bias, self.stride, 0, self.dilation,
                                       self.groups)
        return self._conv_function(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        s = f'{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}'
        if self.padding != (0,) * len(self.padding):
            s += f', padding={self.padding}'
        if self.dilation != (1,) * len(self.dilation):
            s += f', dilation={self.dilation}'
        if self.output_padding != (0,) * len(self.output_padding):
            s += f', output_padding={self.output_padding}'
        if self.groups != 1:
            s += f', groups={self.groups}'
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += f', padding_mode={self.padding_mode}'
        return s


def _conv_init(ntuple):
    # Conv1d/2d/3d's __init__, which PyTorch writes out in each with its _single/_pair/_triple:
    # the sizes as tuples of the module's dimensionality, then _ConvNd's checks and parameters
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        _ConvNd.__init__(self, in_channels, out_channels, ntuple(kernel_size), ntuple(stride),
                         padding if isinstance(padding, str) else ntuple(padding), ntuple(dilation), False,
                         ntuple(0), groups, bias, padding_mode, device, dtype)

    return __init__


class Conv2d(_ConvNd):
    __init__ = _conv_init(_pair)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != 'zeros':
            return functional.conv2d(self._padded_by_mode(input), weight, bias, self.stride, (0, 0),
                                     self.dilation, self.groups)
        padding = self.padding
        if padding == 'valid':
            padding = (0, 0)
        elif padding == 'same':
            # ATen's _convolution_mode: half the total padding on each side, the odd element on
            # the right by padding the input
            total = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
            left = [t // 2 for t in total]
            if any(t % 2 for t in total):
                input = _f_pad(input, (0, total[1] - 2 * left[1], 0, total[0] - 2 * left[0]))
            padding = tuple(left)
        return functional.conv2d(input, weight, bias, self.stride, padding, self.dilation, self.groups)


# torch/nn/modules/pooling.py's bases, so that a pooling module's __mro__ and isinstance checks
# are PyTorch's, and each family's fields and extra_repr are written once.
class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, '
                f'dilation={self.dilation}, ceil_mode={self.ceil_mode}')


class _AvgPoolNd(Module):
    # PyTorch writes this __init__ out in AvgPool2d and in AvgPool3d (its _AvgPoolNd has only
    # extra_repr); AvgPool1d, whose sizes are _single tuples and which has no divisor_override,
    # keeps its own
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return f'output_size={self.output_size}'


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f'output_size={self.output_size}'


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):
        return functional.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                     ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool2d(_AvgPoolNd):
    def forward(self, input):
        return functional.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                     self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return functional.adaptive_avg_pool2d(input, self.output_size)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        if sparse:
            # the engine has no sparse tensors: a dense gradient would look like PyTorch's
            # but print and behave differently (is_sparse, SparseAdam)
            raise NotImplementedError('cudatutor: nn.Embedding(sparse=True) is not supported yet (no sparse '
                                      'gradients); use sparse=False')
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, 'Padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, 'Padding_idx must be within num_embeddings'
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(torch.empty(num_embeddings, embedding_dim, device=device, dtype=dtype)
                                    .normal_(0.0, 1.0), requires_grad=not _freeze)
            if padding_idx is not None:
                with torch.no_grad():
                    self.weight[padding_idx].fill_(0)
        else:
            assert list(_weight.shape) == [num_embeddings, embedding_dim], \
                'Shape of weight does not match num_embeddings and embedding_dim'
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        assert embeddings.dim() == 2, 'Embeddings parameter is expected to be 2-dimensional'
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)

    def forward(self, input):
        return functional.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                                    self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = f'{self.num_embeddings}, {self.embedding_dim}'
        if self.padding_idx is not None:
            s = s + f', padding_idx={self.padding_idx}'
        if self.max_norm is not None:
            s = s + f', max_norm={self.max_norm}'
        if self.norm_type != 2:
            s = s + f', norm_type={self.norm_type}'
        if self.scale_grad_by_freq is not False:
            s = s + f', scale_grad_by_freq={self.scale_grad_by_freq}'
        if self.sparse is not False:
            s = s + ', sparse=True'
        return s


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return functional.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


class Identity(Module):
    def __init__(self, *args, **kwargs):
        # PyTorch's Identity takes and ignores any arguments
        super().__init__()

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
        if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool)):
            raise TypeError(f'dim must be an int or None, got {type(dim)}')
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
        if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool)):
            raise TypeError(f'dim must be an int or None, got {type(dim)}')
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
        if (self.inplace and self.training and self.p != 0 and input.numel() > 0 and input.requires_grad
                and input.is_leaf and torch.is_grad_enabled()):
            # dropout_ multiplies the input in place: autograd's check of in-place ops on leaves
            raise RuntimeError('a leaf Variable that requires grad is being used in an in-place operation.')
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
        self.register_buffer('weight', weight)
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
    # ATen's apply_loss_reduction: the enum a reduction string maps to (get_enum's ValueError)
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    if reduction == 'none':
        return loss
    raise ValueError(f'{reduction} is not a valid value for reduction')


# derivatives.yaml's in-place overloads that have nodes of their own (their formulas read the
# result rather than the overwritten input)
_INPLACE_NODES = {'LeakyReluBackward0': 'LeakyReluBackward1', 'EluBackward0': 'EluBackward1',
                  'HardtanhBackward0': 'HardtanhBackward1'}


def _act_result(input, compute, inplace):
    # compute(t): the activation of t. In place, it runs on a private copy of the input's
    # values (with the input's history) when autograd records it, so its node keeps the
    # values from before the write, and the input takes the result's history.
    if not inplace:
        return compute(input)
    src = _C._private_copy(input) if input.requires_grad and torch.is_grad_enabled() else input
    out = compute(src)
    node = _INPLACE_NODES.get(out.grad_fn.name()) if out.grad_fn is not None else None
    return _C._inplace_result(input, out, 'copy_', node)


def _f_leaky_relu(input, negative_slope=0.01, inplace=False):
    return _act_result(input, lambda t: _C._activation('leaky_relu', t, negative_slope), inplace)


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
    if input.is_floating_point() and target.is_floating_point() and target.dtype != input.dtype:
        # smooth_l1_loss promotes: a float32 input against a float64 target is a float64 loss
        # (its gradient cast back to float32)
        common = torch.promote_types(input.dtype, target.dtype)
        if common != input.dtype:
            input = input.to(common)
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
    return _act_result(input, lambda t: _C._activation('elu', t, alpha, 1.0, 1.0), inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _f_selu(input, inplace=False):
    return _act_result(input, lambda t: _C._activation('elu', t, _SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def _f_celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError('ZeroDivisionError: alpha cannot be 0 for CELU')
    return _act_result(input, lambda t: _C._activation('celu', t, alpha), inplace)


def _f_relu6(input, inplace=False):
    return _f_hardtanh(input, 0.0, 6.0, inplace)


def _f_hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError('min_val cannot be greater than max_val')
    if not input.is_floating_point():
        # an integer input clamps to the bounds cast to its type (truncated toward zero)
        return _act_result(input, lambda t: t.clamp(int(min_val), int(max_val)), inplace)
    return _act_result(input, lambda t: _C._activation('hardtanh', t, min_val, max_val), inplace)


def _f_silu(input, inplace=False):
    return _act_result(input, lambda t: _C._activation('silu', t), inplace)


def _f_mish(input, inplace=False):
    return _act_result(input, lambda t: _C._activation('mish', t), inplace)


def _f_logsigmoid(input):
    return _C._activation('log_sigmoid', input)


def _f_hardsigmoid(input, inplace=False):
    return _act_result(input, lambda t: _C._activation('hardsigmoid', t), inplace)


def _f_hardswish(input, inplace=False):
    return _act_result(input, lambda t: _C._activation('hardswish', t), inplace)


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
    return _C._node('GluBackward0', lambda t: _glu(t, dim), input)


def _glu(input, dim):
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


def _f_softmin(input, dim=None, _stacklevel=3, dtype=None):
    # (-input).softmax(dim, dtype=dtype): the cast comes first
    if dtype is not None:
        input = input.to(dtype)
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
    # torch/nn/functional.py warns about 'mean' before torch.kl_div refuses integral inputs
    if reduction == 'mean':
        _C.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    if not input.is_floating_point() or not target.is_floating_point():
        raise RuntimeError('kl_div: Integral inputs not supported.')
    if log_target:
        loss = target.exp() * (target - input)
    else:
        # ATen's kl_div: xlogy(target, target) - target * input
        loss = torch.xlogy(target, target) - target * input
    if reduction == 'batchmean':
        return loss.sum() / input.shape[0] if input.dim() != 0 else loss.sum()
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
        # buffers, as PyTorch registers them (they show in the state_dict)
        self.register_buffer('weight', weight)
        self.register_buffer('pos_weight', pos_weight)
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
    # a copy of the module tree whose parameters and buffers live on `device`
    r = object.__new__(type(m))
    d = r.__dict__
    for k, v in m.__dict__.items():
        d[k] = v
    d['_parameters'] = {}
    d['_buffers'] = {}
    d['_modules'] = {}
    d['_non_persistent_buffers_set'] = set(m._non_persistent_buffers_set)
    for k, v in m._parameters.items():
        nv = None if v is None else Parameter(v.to(device), v.requires_grad)
        d['_parameters'][k] = nv
        d[k] = nv
    for k, v in m._buffers.items():
        nv = None if v is None else v.to(device)
        d['_buffers'][k] = nv
        d[k] = nv
    for k, v in m._modules.items():
        nv = None if v is None else _replicate(v, device)
        d['_modules'][k] = nv
        d[k] = nv
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
    if training and eps <= 0.0:
        raise ValueError(f'batch_norm eps must be positive during training, but got {eps}')
    elif eps < 0.0:
        raise ValueError(f'batch_norm eps must be non-negative, but got {eps}')
    if input.numel() == 0:
        # _batch_norm_impl_index: an empty input is cloned (scaled by weight[0], shifted by
        # bias[0] when given), not normalised
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    return _C._composite('NativeBatchNormBackward0', _batch_norm, input, weight, bias, running_mean,
                         running_var, training, momentum, eps, _edges=3)


def _fma32(a, b, c):
    # a * b + c rounded once, as the CPU kernel's fused multiply-add: the product of two
    # float32 values is exact in float64, so only the sum rounds (twice, which differs from
    # one rounding only on halfway cases)
    return (a.double() * b.double() + c.double()).float()


def _fma64(a, b, c):
    # a * b + c rounded once in float64, by error-free transformations: the product split
    # exactly into p + e (Veltkamp/Dekker), then p + c split into s + t (Knuth's TwoSum);
    # s + (t + e) is the fused result (but for rare double-rounding ties). The gradient is
    # the plain a * b + c's: the correction is added detached.
    plain = a * b + c
    factor = 134217729.0
    ca, cb = a * factor, b * factor
    ah = ca - (ca - a)
    al = a - ah
    bh = cb - (cb - b)
    bl = b - bh
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    exact = s + (t + e)
    return plain + (exact - plain).detach()


def _batch_norm_stats(x, c, n, dt):
    # ATen's batch_norm_cpu_collect_stats: (mean, biased var, var_sum) per channel, computed
    # without autograd. A contiguous input sums each channel in order in double (the mean), and
    # the float products (x - mean)^2 in double (the variance sum); an (N, C) input takes the
    # channels-last kernel: running sums per channel in the input's dtype (the variance one
    # a fused multiply-add per step), divided in double
    xc = x.transpose(0, 1).reshape(c, -1) if x.dim() > 1 else x.reshape(c, 1)
    if n == x.shape[0]:
        acc = xc[:, 0]
        for j in range(1, n):
            acc = acc + xc[:, j]
        mean = (acc.double() / n).to(dt)
        d = xc - mean.reshape(c, 1)
        fma = _fma32 if dt == torch.float32 else _fma64
        var_sum = torch.zeros(c, dtype=dt, device=x.device)
        for j in range(n):
            var_sum = fma(d[:, j], d[:, j], var_sum)
    else:
        mean = (xc.double().cumsum(1)[:, -1] / n).to(dt)
        d = xc - mean.reshape(c, 1)
        var_sum = (d * d).double().cumsum(1)[:, -1].to(dt)
    return mean, var_sum / n, var_sum


def _batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps):
    # ATen's CPU batch norm (batch_norm.cpp, cpu/batch_norm_kernel.cpp): per channel mean and
    # invstd = 1 / sqrt(var + eps) (in double while training), then out = x * alpha + beta with
    # alpha = invstd * weight, beta = bias - mean * alpha, both fused multiply-adds. The
    # statistics' gradient is the plain mean's and var's.
    c = x.shape[1] if x.dim() > 1 else x.shape[0]
    shape = [1, c] + [1] * (x.dim() - 2)
    dt = x.dtype
    n = x.numel() // c if c else 0
    # the CPU kernel's order of operations (on a GPU PyTorch runs other kernels)
    exact = x.device.type == 'cpu' and dt in (torch.float32, torch.float64)
    if training:
        dims = [0] + list(range(2, x.dim()))
        mean = x.mean(dims)
        var = x.var(dims, unbiased=False)
        var_sum = var * n
        if exact and n > 0:
            with torch.no_grad():
                m_exact, v_exact, var_sum = _batch_norm_stats(x.detach(), c, n, dt)
            mean = _exact_as(mean, m_exact)
            var = _exact_as(var, v_exact)
            invstd = (1 / (var.double() + eps).sqrt()).to(dt)
        else:
            invstd = 1 / (var + eps).sqrt()
    else:
        mean = running_mean
        invstd = 1 / (running_var + eps).sqrt()
    if training and (running_mean is not None or running_var is not None):
        with torch.no_grad():
            mom = torch.tensor(momentum, dtype=dt)
            if running_mean is not None:
                running_mean.copy_(mom * mean + (1 - mom) * running_mean)
            if running_var is not None:
                unbiased = (var_sum / (n - 1)).double()
                running_var.copy_((mom.double() * unbiased + (1 - mom).double() * running_var.double()).to(dt))
    alpha = invstd if weight is None else invstd * weight
    b = torch.zeros_like(alpha) if bias is None else bias
    fma = (_fma32 if dt == torch.float32 else _fma64) if exact else None
    if fma is not None:
        beta = fma(-mean, alpha, b)
        return fma(x, alpha.reshape(*shape), beta.reshape(*shape))
    beta = b - mean * alpha
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
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if track_running_stats:
            self.register_buffer('running_mean', torch.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer('running_var', torch.ones(num_features, device=device, dtype=dtype))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # _NormBase: a state dict without version metadata (older than 2) may lack the counter
        if self.track_running_stats:
            key = prefix + 'num_batches_tracked'
            if key not in state_dict:
                state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked is not None
                                   and self.num_batches_tracked.device != torch.device('meta')
                                   else torch.tensor(0, dtype=torch.long))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

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
                f'bias={self.bias is not None}, '
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
    return _C._composite('NativeLayerNormBackward0', _layer_norm, input, weight, bias, k, eps, _edges=3)


def _rowwise_moments(x):
    # ATen's RowwiseMoments (native/cpu/moments_utils.h) for each row of the 2-D x, rows side
    # by side: Welford updates over 256-bit lanes (V values) in chunks of 16 vectors, the chunk
    # moments merged pairwise up a stack, the lanes then merged one by one into the moments of
    # the scalar tail; the compiler fuses the lane updates and the last merges into
    # multiply-adds. Returns (mean, biased variance), each of shape (rows,).
    dt = x.dtype
    fma = _fma32 if dt == torch.float32 else _fma64
    rows, n_all = x.shape
    lanes = 32 // x.element_size()
    n = n_all // lanes
    chunks = -(-n // 16)
    depth = 0 if chunks <= 1 else (chunks - 1).bit_length()
    one = torch.tensor(1.0, dtype=dt)
    zeros = torch.zeros(rows, lanes, dtype=dt, device=x.device)
    stack = [[0, zeros, zeros] for _ in range(max(depth, 1))]

    def merge(count_add, m1_add, m2_add, j):
        count, m1, m2 = stack[j]
        total = count + count_add
        c = torch.tensor(0.0, dtype=dt) if total == 0 else torch.tensor(float(count_add), dtype=dt) / total
        delta = m1_add - m1
        stack[j] = [total, m1 + delta * c, m2 + (m2_add + delta * delta * c * float(count))]

    vecs = x[:, :n * lanes].reshape(rows, n, lanes)
    for i in range(chunks):
        size = min(16, n - i * 16)
        m1v, m2v = zeros, zeros
        for j in range(size):
            v = vecs[:, i * 16 + j, :]
            d = v - m1v
            m1v = fma(d, one / (j + 1), m1v)
            m2v = fma(d, v - m1v, m2v)
        merge(size, m1v, m2v, 0)
        mask, j = i + 1, 1
        while j < depth and (mask & 1) == 0:
            merge(stack[j - 1][0], stack[j - 1][1], stack[j - 1][2], j)
            stack[j - 1] = [0, zeros, zeros]
            mask >>= 1
            j += 1
    for i in range(1, depth):
        merge(stack[i][0], stack[i][1], stack[i][2], 0)
    m1_lanes, m2_lanes = stack[0][1], stack[0][2]
    count = 0
    m1 = torch.zeros(rows, dtype=dt, device=x.device)
    m2 = torch.zeros(rows, dtype=dt, device=x.device)
    for i in range(n * lanes, n_all):
        v = x[:, i]
        d = v - m1
        count += 1
        m1 = m1 + d / count
        m2 = m2 + d * (v - m1)
    for i in range(lanes):
        total = count + n
        c = torch.tensor(0.0, dtype=dt) if total == 0 else torch.tensor(float(n), dtype=dt) / total
        delta = m1_lanes[:, i] - m1
        m1 = fma(delta, c, m1)
        m2 = m2 + (m2_lanes[:, i] + delta * delta * c * float(count))
        count = total
    return m1, m2 / n_all


def _exact_as(plain, exact):
    # plain's value replaced by exact (a few ulps away) while the gradient stays plain's
    return plain + (exact - plain).detach()


def _layer_norm(x, weight, bias, k, eps):
    # ATen's CPU layer norm (layer_norm_kernel.cpp): each row's mean and variance by
    # RowwiseMoments, rstd = 1 / sqrt(var + eps) in the dtype, y = (x - mean) * rstd * w + b
    # with the last multiply-add fused. The moments' gradient is the plain mean's and var's.
    dims = list(range(x.dim() - k, x.dim()))
    mean = x.mean(dims, keepdim=True)
    var = x.var(dims, unbiased=False, keepdim=True)
    exact = x.device.type == 'cpu' and x.dtype in (torch.float32, torch.float64)
    if exact and x.numel() > 0:
        with torch.no_grad():
            m_exact, v_exact = _rowwise_moments(x.detach().reshape(mean.numel(), x.numel() // mean.numel()))
        mean = _exact_as(mean, m_exact.reshape(mean.shape))
        var = _exact_as(var, v_exact.reshape(var.shape))
    rstd = 1 / (var + eps).sqrt()
    y = (x - mean) * rstd
    if weight is None and bias is None:
        return y
    w = weight if weight is not None else torch.ones_like(bias)
    b = bias if bias is not None else torch.zeros_like(weight)
    if exact:
        return (_fma32 if x.dtype == torch.float32 else _fma64)(y, w, b)
    return y * w + b


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
            if bias:
                self.bias = Parameter(torch.zeros(*self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)

    def forward(self, input):
        return _f_layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f'{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, '
                f'bias={self.bias is not None}')


def _f_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.dim() < 2:
        raise RuntimeError(f'Expected at least 2 dimensions for input tensor but received {input.dim()}')
    # functional.py's _verify_batch_size (its ZeroDivisionError for num_groups=0 included)
    sizes = [input.shape[0] * input.shape[1] // num_groups, num_groups] + list(input.shape[2:])
    count = 1
    for s in sizes:
        count *= s
    if count == 1:
        raise ValueError(f'Expected more than 1 value per channel when training, got input size {list(sizes)}')
    # then ATen's group_norm, in its order
    c = input.shape[1]
    if c <= 0:
        raise RuntimeError(f'Expected number of channels to be greater than 0, got {c}')
    hw = 1
    for s in input.shape[2:]:
        hw *= s
    if hw <= 0:
        raise RuntimeError(f'Expected HxW to be greater than 0, got {hw}')
    if c % num_groups != 0:
        raise RuntimeError(f'Expected number of channels in input to be divisible by num_groups, but got input of shape {list(input.shape)} and num_groups={num_groups}')
    for name, p in (('weight', weight), ('bias', bias)):
        if p is not None and (p.dim() != 1 or p.numel() != c):
            raise RuntimeError(f'Expected {name} to be a vector of size equal to the number of channels in input, '
                               f'but got {name} of shape {list(p.shape)} and input of shape {list(input.shape)}')
    return _C._composite('NativeGroupNormBackward0', _group_norm, input, weight, bias, num_groups, eps, _edges=3)


def _group_norm(x, weight, bias, g, eps):
    # ATen's CPU group norm (group_norm_kernel.cpp): each (sample, group)'s moments by
    # RowwiseMoments, rstd = 1 / sqrt(max(var, 0) + eps); then per channel scale = rstd * w and
    # bias = -scale * mean + b, y = scale * x + bias, both fused multiply-adds
    n, c = x.shape[0], x.shape[1]
    # the group size spelled out: an empty batch leaves -1 ambiguous
    k = c // g
    for s in x.shape[2:]:
        k *= s
    xg = x.reshape(n, g, k)
    mean = xg.mean(2, keepdim=True)
    var = xg.var(2, unbiased=False, keepdim=True)
    fma = None
    if x.device.type == 'cpu' and x.dtype in (torch.float32, torch.float64):
        fma = _fma32 if x.dtype == torch.float32 else _fma64
    if fma is not None and x.numel() > 0:
        with torch.no_grad():
            m_exact, v_exact = _rowwise_moments(xg.detach().reshape(n * g, -1))
        mean = _exact_as(mean, m_exact.reshape(mean.shape))
        var = _exact_as(var, v_exact.reshape(var.shape))
    # (the clamp at 0 and eps in double: eps is the kernel's double argument)
    rstd = (1 / (var.clamp_min(0).double() + eps).sqrt()).to(x.dtype) if fma is not None else 1 / (var + eps).sqrt()
    shape = [1, c] + [1] * (x.dim() - 2)
    if fma is None:
        y = (xg * rstd + (-rstd * mean)).reshape(x.shape)
        if weight is not None:
            y = y * weight.reshape(*shape)
        if bias is not None:
            y = y + bias.reshape(*shape)
        return y
    if weight is None and bias is None:
        # without an affine the kernel normalizes as (x - mean) * rstd
        return ((xg - mean) * rstd).reshape(x.shape)
    # per channel: (n, g, d) -> (n, c)
    d = c // g
    rstd_c = rstd.reshape(n, g, 1).expand(n, g, d).reshape(n, c)
    mean_c = mean.reshape(n, g, 1).expand(n, g, d).reshape(n, c)
    scale = rstd_c if weight is None else rstd_c * weight.reshape(1, c)
    b = torch.zeros_like(scale) if bias is None else bias.reshape(1, c).expand(n, c)
    shift = fma(-scale, mean_c, b)
    inner = [n, c] + [1] * (x.dim() - 2)
    return fma(scale.reshape(*inner), x, shift.reshape(*inner))


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f'num_channels ({num_channels}) must be divisible by num_groups ({num_groups})')
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(torch.ones(num_channels, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(torch.zeros(num_channels, device=device, dtype=dtype))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)

    def forward(self, input):
        return _f_group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f'{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, '
                f'bias={self.bias is not None}')


# ---- recurrent layers: ATen's CPU path (input projection for all steps at once, then per step
# gates = linear(h, w_hh, b_hh) + projected input) ----

class RNNBase(Module):
    _gates = 1

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        # RNNBase.__init__'s checks, in its order
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError('dropout should be a number in range [0, 1] representing the probability of an '
                             'element being zeroed')
        if not isinstance(bias, bool):
            raise TypeError(f'bias should be of type bool, got: {type(bias).__name__}')
        if not isinstance(batch_first, bool):
            raise TypeError(f'batch_first should be of type bool, got: {type(batch_first).__name__}')
        if not isinstance(input_size, int):
            raise TypeError(f'input_size should be of type int, got: {type(input_size).__name__}')
        if input_size <= 0:
            raise ValueError('input_size must be greater than zero')
        if not isinstance(hidden_size, int):
            raise TypeError(f'hidden_size should be of type int, got: {type(hidden_size).__name__}')
        if hidden_size <= 0:
            raise ValueError('hidden_size must be greater than zero')
        if num_layers <= 0:
            raise ValueError('num_layers must be greater than zero')
        if not isinstance(proj_size, int) or isinstance(proj_size, bool) or proj_size < 0:
            raise ValueError('proj_size should be a positive integer or zero to disable projections')
        if proj_size >= hidden_size:
            raise ValueError('proj_size has to be smaller than hidden_size')
        if proj_size != 0 and mode != 'LSTM':
            raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')
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
        # with proj_size (LSTM) each step's hidden state is projected to proj_size by weight_hr
        real_hidden = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for d in range(dirs):
                n_in = input_size if layer == 0 else real_hidden * dirs
                sfx = f'_l{layer}' + ('_reverse' if d == 1 else '')
                setattr(self, 'weight_ih' + sfx, Parameter(torch.empty(g, n_in, device=device, dtype=dtype)))
                setattr(self, 'weight_hh' + sfx, Parameter(torch.empty(g, real_hidden, device=device, dtype=dtype)))
                if bias:
                    setattr(self, 'bias_ih' + sfx, Parameter(torch.empty(g, device=device, dtype=dtype)))
                    setattr(self, 'bias_hh' + sfx, Parameter(torch.empty(g, device=device, dtype=dtype)))
                if proj_size > 0:
                    setattr(self, 'weight_hr' + sfx,
                            Parameter(torch.empty(proj_size, hidden_size, device=device, dtype=dtype)))
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

    def _step(self, xw, h, c, w_hh, b_hh, w_hr):
        # ATen's LSTM cell with a projection: hy = matmul(o * tanh(cy), w_hr.t())
        h, c = self._cell(xw, h, c, w_hh, b_hh)
        if w_hr is not None:
            h = h.matmul(w_hr.t())
        return h, c

    def _packed_forward(self, input, hx):
        # ATen's PackedLayer / ReversedPackedLayer: the input projection of all rows at once, then
        # each step on the batch_sizes[t] sequences still running; a sequence's final hidden state
        # is the one it had at its last step
        import torch.nn.utils.rnn as rnn_utils
        data, batch_sizes = input.data, input.batch_sizes
        sizes = batch_sizes.tolist()
        max_batch = sizes[0]
        dirs = 2 if self.bidirectional else 1
        lstm = self._gates == 4
        if data.shape[-1] != self.input_size:
            raise RuntimeError(f'input.size(-1) must be equal to input_size. Expected {self.input_size}, got {data.shape[-1]}')
        if hx is None:
            h0 = torch.zeros(self.num_layers * dirs, max_batch, self.proj_size or self.hidden_size, dtype=data.dtype,
                             device=data.device)
            c0 = (torch.zeros(self.num_layers * dirs, max_batch, self.hidden_size, dtype=data.dtype, device=data.device)
                  if lstm else None)
        else:
            h0, c0 = hx if lstm else (hx, None)
            if input.sorted_indices is not None:
                h0 = h0.index_select(1, input.sorted_indices)
                c0 = c0.index_select(1, input.sorted_indices) if lstm else None
            want = (self.num_layers * dirs, max_batch, self.proj_size or self.hidden_size)
            if tuple(h0.shape) != want:
                raise RuntimeError(f'Expected hidden size {want}, got {list(h0.shape)}')
        hn, cn = [], []
        layer_in = data
        for layer in range(self.num_layers):
            outs_dir = []
            for d in range(dirs):
                sfx = f'_l{layer}' + ('_reverse' if d == 1 else '')
                w_ih = getattr(self, 'weight_ih' + sfx)
                w_hh = getattr(self, 'weight_hh' + sfx)
                b_ih = getattr(self, 'bias_ih' + sfx) if self.bias else None
                b_hh = getattr(self, 'bias_hh' + sfx) if self.bias else None
                w_hr = getattr(self, 'weight_hr' + sfx) if self.proj_size > 0 else None
                xw = functional.linear(layer_in, w_ih, b_ih)
                k = layer * dirs + d
                steps_out = []
                if d == 0:
                    h = h0[k]
                    c = c0[k] if lstm else None
                    done_h, done_c = [], []
                    offset = 0
                    last = sizes[0]
                    for bs in sizes:
                        if bs < last:
                            done_h.append(h[bs:last])
                            h = h[:bs]
                            if lstm:
                                done_c.append(c[bs:last])
                                c = c[:bs]
                        last = bs
                        h, c = self._step(xw[offset:offset + bs], h, c, w_hh, b_hh, w_hr)
                        offset += bs
                        steps_out.append(h)
                    done_h.append(h)
                    done_h.reverse()
                    hn.append(torch.cat(done_h, 0))
                    if lstm:
                        done_c.append(c)
                        done_c.reverse()
                        cn.append(torch.cat(done_c, 0))
                else:
                    last = sizes[-1]
                    h = h0[k][:last]
                    c = c0[k][:last] if lstm else None
                    offset = sum(sizes)
                    for bs in reversed(sizes):
                        if bs > last:
                            h = torch.cat([h, h0[k][last:bs]], 0)
                            if lstm:
                                c = torch.cat([c, c0[k][last:bs]], 0)
                        h, c = self._step(xw[offset - bs:offset], h, c, w_hh, b_hh, w_hr)
                        offset -= bs
                        last = bs
                        steps_out.append(h)
                    steps_out.reverse()
                    hn.append(h)
                    cn.append(c)
                outs_dir.append(torch.cat(steps_out, 0))
            layer_in = outs_dir[0] if dirs == 1 else torch.cat(outs_dir, 1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_in = functional.dropout(layer_in, self.dropout, True)
        h_n = torch.stack(hn, 0)
        c_n = torch.stack(cn, 0) if lstm else None
        if input.unsorted_indices is not None:
            h_n = h_n.index_select(1, input.unsorted_indices)
            c_n = c_n.index_select(1, input.unsorted_indices) if lstm else None
        out = rnn_utils.PackedSequence(layer_in, batch_sizes, input.sorted_indices, input.unsorted_indices)
        return (out, (h_n, c_n)) if lstm else (out, h_n)

    def forward(self, input, hx=None):
        if type(input).__name__ == 'PackedSequence':
            return self._packed_forward(input, hx)
        if input.dtype != self.weight_ih_l0.dtype:
            w = self.weight_ih_l0.dtype
            raise ValueError(f'RNN input dtype ({input.dtype}) does not match weight dtype ({w}). '
                             f'Convert input: input.to({w}), or convert model: model.to({input.dtype})')
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
            h0 = torch.zeros(self.num_layers * dirs, n, self.proj_size or self.hidden_size, dtype=x.dtype,
                             device=x.device)
            c0 = torch.zeros(self.num_layers * dirs, n, self.hidden_size, dtype=x.dtype, device=x.device) if lstm else None
        else:
            h0, c0 = hx if lstm else (hx, None)
            if not batched:
                h0 = h0.unsqueeze(1)
                c0 = c0.unsqueeze(1) if c0 is not None else None
            want = (self.num_layers * dirs, n, self.proj_size or self.hidden_size)
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
                w_hr = getattr(self, 'weight_hr' + sfx) if self.proj_size > 0 else None
                xw = functional.linear(layer_in, w_ih, b_ih)
                k = layer * dirs + d
                h = h0[k]
                c = c0[k] if lstm else None
                outs = [None] * steps
                order = range(steps) if d == 0 else range(steps - 1, -1, -1)
                for t in order:
                    h, c = self._step(xw[t], h, c, w_hh, b_hh, w_hr)
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
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 3:
        raise RuntimeError(f'Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: {list(input.shape)}')
    if weight.dim() < 3:
        raise RuntimeError('weight should have at least three dimensions')
    # check_shape_forward: the arguments' signs before the shapes
    if not isinstance(padding, str) and _single(padding)[0] < 0:
        raise RuntimeError('negative padding is not supported')
    if _single(stride)[0] <= 0:
        raise RuntimeError('non-positive stride is not supported')
    if _single(dilation)[0] < 0:
        raise RuntimeError('dilation should be greater than zero')
    if isinstance(groups, int) and groups > 0:
        # ATen's check_shape_forward, naming conv1d's own shapes (conv2d below sees them
        # with an extra dimension)
        ws = list(weight.shape)
        if ws[0] < groups:
            raise RuntimeError(f'Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size {ws} instead')
        if ws[0] % groups != 0:
            raise RuntimeError(f'Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size {ws} instead')
        if x.shape[1] != ws[1] * groups:
            raise RuntimeError(f'Given groups={groups}, weight of size {ws}, expected input{list(x.shape)} to have {ws[1] * groups} channels, but got {x.shape[1]} channels instead')
    if isinstance(padding, str):
        # ATen's _convolution_mode
        if padding == 'valid':
            padding = 0
        elif padding == 'same':
            if any(st != 1 for st in _single(stride)):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = _single(dilation)[0] * (weight.shape[-1] - 1)
            left = total // 2
            if total % 2 != 0:
                # the odd element of padding goes on the right, by padding the input
                x = _f_pad(x, (0, total - 2 * left))
            padding = left
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    # PyTorch's one ConvolutionBackward0 node (edges: input, weight, bias)
    y = _C._node('ConvolutionBackward0', lambda t, w, b: functional.conv2d(
        t.unsqueeze(2), w.unsqueeze(2), b, (1, _single(stride)[0]), (0, _single(padding)[0]),
        (1, _single(dilation)[0]), groups).squeeze(2), x, weight, bias, _edges=3)
    return y.squeeze(0) if unbatched else y


class Conv1d(_ConvNd):
    __init__ = _conv_init(_single)
    _conv_function = staticmethod(_f_conv1d)


_native_max_pool2d = functional.max_pool2d


def _triple(v):
    if isinstance(v, (tuple, list)):
        return tuple(v) if len(v) != 1 else (v[0], v[0], v[0])
    return (v, v, v)


def _max_pool2d_indices(x, out, kernel, stride, padding, dilation):
    # The flat index (row * W + col within the plane) of each window's maximum, chosen as
    # aten's max_pool2d CPU kernel chooses it: windows scanned row by row, a value replaces
    # the running maximum when it is greater or NaN, and an all-lowest window keeps its first
    # valid position.
    h, w = x.shape[-2], x.shape[-1]
    oh, ow = out.shape[-2], out.shape[-1]
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation

    def first_valid(o, s, p, d):
        start = o * s - p
        while start < 0:
            start += d
        return start

    first = torch.tensor([[first_valid(r, sh, ph, dh) * w + first_valid(c, sw, pw, dw) for c in range(ow)]
                          for r in range(oh)], dtype=torch.int64, device=x.device)
    idx = first.expand(out.shape).clone()
    if x.is_floating_point():
        best = torch.full(out.shape, -math.inf, dtype=x.dtype, device=x.device)
    else:
        best = torch.full(out.shape, torch.iinfo(x.dtype).min, dtype=x.dtype, device=x.device)
    for i in range(kh):
        rows = [r * sh - ph + i * dh for r in range(oh)]
        for j in range(kw):
            cols = [c * sw - pw + j * dw for c in range(ow)]
            valid = torch.tensor([[0 <= r < h and 0 <= c < w for c in cols] for r in rows], device=x.device)
            cand = torch.tensor([[r * w + c for c in cols] for r in rows], dtype=torch.int64, device=x.device)
            ri = torch.tensor([min(max(r, 0), h - 1) for r in rows], dtype=torch.int64, device=x.device)
            ci = torch.tensor([min(max(c, 0), w - 1) for c in cols], dtype=torch.int64, device=x.device)
            v = x.index_select(-2, ri).index_select(-1, ci)
            take = valid & ((v > best) | v.isnan())
            best = torch.where(take, v, best)
            idx = torch.where(take, cand, idx)
    return idx


def _f_max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out = _native_max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)
    if not return_indices:
        return out
    k = _pair(kernel_size)
    s = k if stride is None or stride == [] or stride == () else _pair(stride)
    with torch.no_grad():
        idx = _max_pool2d_indices(input.detach(), out, k, s, _pair(padding), _pair(dilation))
    return out, idx


def _max_pool1d_checks(input, k, s, p, d, ceil_mode):
    # aten's max_pool1d (the path without indices) checks and words its errors itself
    shape = list(input.shape)
    if input.dim() not in (2, 3) or shape[-1] == 0 or shape[-2] == 0:
        raise RuntimeError(f'max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:{shape}')
    if k <= 0:
        raise RuntimeError(f'max_pool1d() kernel_size must be greater than zero, but got {k}')
    if s <= 0:
        raise RuntimeError(f'max_pool1d() stride must be greater than zero, but got {s}')
    if p < 0:
        raise RuntimeError(f'max_pool1d() padding must be non-negative, but got {p}')
    if p > k // 2:
        raise RuntimeError(f'max_pool1d() padding should be at most half of kernel size, but got padding={p} and kernel_size={k}')
    if d <= 0:
        raise RuntimeError(f'max_pool1d() dilation must be greater than zero, but got {d}')
    n = shape[-1] + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    ow = (n // s) + 1
    if ceil_mode and (ow - 1) * s >= shape[-1] + p:
        ow -= 1
    if ow <= 0:
        raise RuntimeError(f'max_pool1d() Invalid computed output size: {ow}')


def _pool_out_size(size, k, p, s, d, ceil_mode):
    # ATen's pooling_output_shape
    n = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = n // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _triple_arg(v, name, default=None):
    if v is None or (isinstance(v, (list, tuple)) and len(v) == 0):
        return default
    t = _triple(v)
    if len(t) != 3:
        raise RuntimeError(f'{name} must either be a single int, or a tuple of three ints')
    return t


def _pool3d_checks(input, k, s, p, d, ceil_mode, fn_name, check_input_size):
    if input.dim() not in (4, 5):
        raise RuntimeError('non-empty 4D or 5D (batch mode) tensor expected for input')
    sizes = list(input.shape[-3:])
    outs = []
    for i in range(3):
        if s[i] == 0:
            raise RuntimeError('stride should not be zero')
        if p[i] < 0:
            raise RuntimeError(f'pad must be non-negative, but got pad: {p[i]}')
        if p[i] > ((k[i] - 1) * d[i] + 1) // 2:
            raise RuntimeError(f'pad should be at most half of effective kernel size, but got pad={p[i]}, kernel_size={k[i]} and dilation={d[i]}')
        outs.append(_pool_out_size(sizes[i], k[i], p[i], s[i], d[i], ceil_mode))
    if min(k) <= 0:
        raise RuntimeError(f'kernel size should be greater than zero, but got kT: {k[0]} kH: {k[1]} kW: {k[2]}')
    if min(s) <= 0:
        raise RuntimeError(f'stride should be greater than zero, but got dT: {s[0]} dH: {s[1]} dW: {s[2]}')
    if min(d) <= 0:
        raise RuntimeError(f'dilation should be greater than zero, got dilationT: {d[0]} dilationH: {d[1]} dilationW: {d[2]}')
    for i in range(input.dim()):
        if input.dim() == 5 and i == 0:
            continue
        if input.shape[i] == 0:
            raise RuntimeError(f'{fn_name}: Expected input to have non-zero size for non-batch dimensions, but input has sizes {list(input.shape)} with dimension {i} being empty')
    if k[0] // 2 < p[0] or k[2] // 2 < p[2] or k[1] // 2 < p[1]:
        raise RuntimeError(f'pad should be smaller than or equal to half of kernel size, but got kT: {k[0]} kW: {k[2]} kH: {k[1]} padT: {p[0]} padW: {p[2]} padH: {p[1]}')
    if check_input_size and (sizes[0] < k[0] or sizes[1] < k[1] or sizes[2] < k[2]):
        raise RuntimeError(f'input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller than kernel size (kT: {k[0]} kH: {k[1]} kW: {k[2]})')
    if min(outs) < 1:
        c = input.shape[-4]
        raise RuntimeError(f'Given input size: ({c}x{sizes[0]}x{sizes[1]}x{sizes[2]}). Calculated output size: ({c}x{outs[0]}x{outs[1]}x{outs[2]}). Output size is too small')
    return sizes, outs


def _pool3d_taps(x, sizes, outs, k, s, p, d):
    # every kernel tap in ATen's loop order: (values at the tap for each output position,
    # whether the tap lies inside the input, its flat index in the input volume)
    for a in range(k[0]):
        ts = [o * s[0] - p[0] + a * d[0] for o in range(outs[0])]
        for b in range(k[1]):
            hs = [o * s[1] - p[1] + b * d[1] for o in range(outs[1])]
            for c in range(k[2]):
                ws = [o * s[2] - p[2] + c * d[2] for o in range(outs[2])]
                valid = torch.tensor([[[0 <= t < sizes[0] and 0 <= h < sizes[1] and 0 <= w < sizes[2]
                                        for w in ws] for h in hs] for t in ts], device=x.device)
                flat = torch.tensor([[[(t * sizes[1] + h) * sizes[2] + w for w in ws] for h in hs] for t in ts],
                                    dtype=torch.int64, device=x.device)
                sel = x
                for dim, pos, n in ((-3, ts, sizes[0]), (-2, hs, sizes[1]), (-1, ws, sizes[2])):
                    idx = torch.tensor([min(max(q, 0), n - 1) for q in pos], dtype=torch.int64, device=x.device)
                    sel = sel.index_select(dim, idx)
                yield sel, valid, flat


def _f_max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    # aten's max_pool3d CPU kernel: windows scanned in order, a value replaces the running
    # maximum when greater or NaN; an all-lowest window keeps its first valid position
    k = _triple_arg(kernel_size, 'max_pool3d: kernel_size')
    s = _triple_arg(stride, 'max_pool3d: stride', k)
    p = _triple_arg(padding, 'max_pool3d: padding')
    d = _triple_arg(dilation, 'max_pool3d: dilation')
    sizes, outs = _pool3d_checks(input, k, s, p, d, ceil_mode, 'max_pool3d_with_indices_out_cpu_template()', False)
    x = input
    out_shape = list(input.shape[:-3]) + outs
    if x.is_floating_point():
        best = torch.full(out_shape, -math.inf, dtype=x.dtype, device=x.device)
    else:
        best = torch.full(out_shape, torch.iinfo(x.dtype).min, dtype=x.dtype, device=x.device)
    idx = None
    for v, valid, flat in _pool3d_taps(x, sizes, outs, k, s, p, d):
        if idx is None:
            # the first valid tap of each window
            def first(o, st, pa, di):
                q = o * st - pa
                while q < 0:
                    q += di
                return q
            idx = torch.tensor([[[(first(t, s[0], p[0], d[0]) * sizes[1] + first(h, s[1], p[1], d[1])) * sizes[2]
                                  + first(w, s[2], p[2], d[2]) for w in range(outs[2])] for h in range(outs[1])]
                                for t in range(outs[0])], dtype=torch.int64, device=x.device).expand(out_shape).clone()
        take = valid & ((v > best) | v.isnan())
        best = torch.where(take, v, best)
        idx = torch.where(take, flat, idx)
    if return_indices:
        return best, idx
    return best


def _f_avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                  divisor_override=None):
    # aten's avg_pool3d CPU kernel: each window summed in order (in float for float32), then
    # divided by the window's size (padding counted or not) or the override
    k = _triple_arg(kernel_size, 'avg_pool3d: kernel_size')
    s = _triple_arg(stride, 'avg_pool3d: stride', k)
    p = _triple_arg(padding, 'avg_pool3d: padding')
    if input.dim() not in (4, 5):
        raise RuntimeError('non-empty 4D or 5D (batch mode) tensor expected for input')
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError('divisor must be not zero')
    return _avg_pool3d_core(input, k, s, p, ceil_mode, count_include_pad, divisor_override, True)


def _avg_pool3d_core(input, k, s, p, ceil_mode, count_include_pad, divisor_override, check_input_size):
    sizes, outs = _pool3d_checks(input, k, s, p, (1, 1, 1), ceil_mode, 'avg_pool3d()', check_input_size)
    out_shape = list(input.shape[:-3]) + outs
    total = torch.zeros(out_shape, dtype=input.dtype, device=input.device)
    for v, valid, _ in _pool3d_taps(input, sizes, outs, k, s, p, (1, 1, 1)):
        total = torch.where(valid, total + v, total)
    divisors = []
    empty = []
    for t in range(outs[0]):
        for h in range(outs[1]):
            for w in range(outs[2]):
                lo = [t * s[0] - p[0], h * s[1] - p[1], w * s[2] - p[2]]
                hi = [min(lo[i] + k[i], sizes[i] + p[i]) for i in range(3)]
                pool_size = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
                lo = [max(v, 0) for v in lo]
                hi = [min(hi[i], sizes[i]) for i in range(3)]
                empty.append(any(lo[i] >= hi[i] for i in range(3)))
                if divisor_override is not None:
                    divisors.append(divisor_override)
                elif count_include_pad:
                    divisors.append(pool_size)
                else:
                    divisors.append((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]))
    if input.is_floating_point():
        div = torch.tensor([float(v) if not e else 1.0 for v, e in zip(divisors, empty)],
                           dtype=input.dtype, device=input.device).reshape(outs)
        out = total / div
    else:
        # integer windows sum and divide in the integer type (C++ division truncates)
        div = torch.tensor([v if not e else 1 for v, e in zip(divisors, empty)],
                           dtype=input.dtype, device=input.device).reshape(outs)
        out = torch.div(total, div, rounding_mode='trunc')
    if any(empty):
        out = out.masked_fill(torch.tensor(empty, device=input.device).reshape(outs), 0)
    return out


_native_avg_pool2d = functional.avg_pool2d


def _f_avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                  divisor_override=None):
    if isinstance(input, torch.Tensor) and not input.is_floating_point() and input.dim() in (3, 4):
        # 2.15 averages integer inputs too (summed and divided in the integer type): the
        # 3-d kernel over a depth of one
        k = _pair(kernel_size)
        st = k if stride is None or stride == [] or stride == () else _pair(stride)
        pd = _pair(padding)
        # the native kernel checks the arguments first (its errors are PyTorch's)
        _native_avg_pool2d(input.float(), k, st, pd, ceil_mode, count_include_pad, divisor_override)
        out = _avg_pool3d_core(input.unsqueeze(-3), (1,) + tuple(k), (1,) + tuple(st), (0,) + tuple(pd), ceil_mode,
                               count_include_pad, divisor_override, False)
        return out.squeeze(-3)
    return _native_avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def _f_max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    k = _single(kernel_size)[0]
    s = k if stride is None or stride == [] or stride == () else _single(stride)[0]
    p, d = _single(padding)[0], _single(dilation)[0]
    if not return_indices and not input.requires_grad:
        _max_pool1d_checks(input, k, s, p, d, ceil_mode)
    r = _f_max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode=ceil_mode,
                      return_indices=return_indices)
    if return_indices:
        return r[0].squeeze(-2), r[1].squeeze(-2)
    return r.squeeze(-2)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError('output_size should be a sequence containing '
                         f"{len(kernel_size)} or {len(kernel_size) + 2} elements, but it has a length of '{len(output_size)}'")
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < output_size[d] < max_size):
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and {max_size})')
    return list(output_size)


def _max_unpool(input, indices, out_spatial, name, dims, stride=None):
    # aten's max_unpooling{2,3}d_forward_out_cpu: each input value is written at its index
    # within its plane of the zeroed output, in order (a repeated index keeps the last value)
    if indices.dtype != torch.int64:
        raise RuntimeError(f'elements in indices should be type int64 but got: {_SCALAR_NAMES.get(indices.dtype, indices.dtype)}')
    nd = input.dim()
    if nd not in (dims + 1, dims + 2):
        raise RuntimeError(f'Input to {name} should be a {dims + 1}d or {dims + 2}d Tensor, but got a tensor with {nd} dimensions.')
    if list(input.shape) != list(indices.shape):
        raise RuntimeError(f'Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}')
    for i in range(1, nd):
        if input.shape[i] == 0:
            raise RuntimeError(f'{name}_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, but got {list(input.shape)} with dimension {i} being empty.')
    if stride is not None and not all(x > 0 for x in stride):
        raise RuntimeError(f'strides should be greater than zero, but got stride: {list(stride)}')
    lead = list(input.shape[:nd - dims])
    size = 1
    for o in out_spatial:
        size *= o
    planes = 1
    for l in lead:
        planes *= l
    flat_idx = indices.reshape(planes, -1)
    if flat_idx.numel() > 0:
        bad = (flat_idx < 0) | (flat_idx >= size)
        if bool(bad.any()):
            first = int(flat_idx[bad][-1])
            raise RuntimeError(f'Found an invalid max index: {first} (output volumes are of size '
                               + 'x'.join(str(o) for o in out_spatial) + ')')
    out = torch.zeros(planes, size, dtype=input.dtype, device=input.device)
    if flat_idx.numel() > 0 and size > 0:
        out = out.scatter(1, flat_idx, input.reshape(planes, -1))
    return out.reshape(lead + list(out_spatial))


def _f_max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _single(kernel_size)
    s = k if stride is None else _single(stride)
    out = _unpool_output_size(input, k, s, _single(padding), output_size)
    return _max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), out + [1], 'max_unpooling2d', 2).squeeze(-1)


def _f_max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _pair(kernel_size)
    s = k if stride is None else _pair(stride)
    out = _unpool_output_size(input, k, s, _pair(padding), output_size)
    return _max_unpool(input, indices, out, 'max_unpooling2d', 2)


def _f_max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _triple(kernel_size)
    s = k if stride is None else _triple(stride)
    out = _unpool_output_size(input, k, s, _triple(padding), output_size)
    return _max_unpool(input, indices, out, 'max_unpooling3d', 3, s)


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


def _adaptive_max_cells(x, outs):
    # aten's adaptive_max_pool2d/3d CPU kernels over the last len(outs) dims of x: output cell
    # (i, j, ...) reads the window _adaptive_window gives in each dim, and its index is flat
    # over those dims
    n = len(outs)
    sizes = list(x.shape[-n:])
    lead = list(x.shape[:-n])
    vals, idxs = [], []
    for c in range(math.prod(outs)):
        cell = []
        for o in reversed(outs):
            cell.insert(0, c % o)
            c //= o
        windows = [_adaptive_window(i, size, o) for i, size, o in zip(cell, sizes, outs)]
        sides = [end - start for start, end in windows]
        win = x[(...,) + tuple(slice(start, end) for start, end in windows)]
        value, local = _window_max(win.reshape(lead + [math.prod(sides)]))
        vals.append(value)
        # the window's row-major offset, as an index over the input's pooled dims
        index = None
        for k in range(n):
            inner = math.prod(sides[k + 1:])
            at = windows[k][0] + local // inner
            local = local % inner
            index = at if index is None else index * sizes[k] + at
        idxs.append(index)
    return _stacked_cells(x, vals, idxs, lead + list(outs))


def _adaptive_window(i, size, out):
    # aten's start_index/end_index for adaptive pooling: output cell i of `out` reads the input
    # from floor(i*size/out) to ceil((i+1)*size/out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def _window_max(win):
    # one window of adaptive max pooling (2d and 3d), flattened in win's last dim: its maximum
    # and the index aten's CPU kernel reports for it, where a value replaces the running
    # maximum when greater or NaN (so the last NaN wins, else the first maximum)
    k = win.shape[-1]
    if win.is_floating_point():
        nan = win.isnan()
        filled = win.masked_fill(nan, -math.inf)
        best = filled.amax(-1, keepdim=True)
        first = (filled == best).long().argmax(-1)
        last_nan = (k - 1) - nan.flip(-1).long().argmax(-1)
        local = torch.where(nan.any(-1), last_nan, first)
    else:
        best = win.amax(-1, keepdim=True)
        local = (win == best).long().argmax(-1)
    return win.gather(-1, local.unsqueeze(-1)).squeeze(-1), local


def _stacked_cells(x, vals, idxs, shape):
    # adaptive max pooling's cells as (values, flat indices) of `shape`: empty ones of x's
    # dtype when the output has no cell
    if not vals:
        return (torch.zeros(shape, dtype=x.dtype, device=x.device),
                torch.zeros(shape, dtype=torch.int64, device=x.device))
    return torch.stack(vals, -1).reshape(shape), torch.stack(idxs, -1).reshape(shape)


def _adaptive_max_pool2d_checked(input, outs, name):
    if len(outs) != 2:
        raise RuntimeError(f'{name}(): internal error: output_size.size() must be 2')
    for o in outs:
        if o < 0:
            raise RuntimeError(f'Trying to create tensor with negative dimension {o}: {list(input.shape[:-2]) + list(outs)}')
    if input.dim() not in (3, 4):
        raise RuntimeError(f'{name}(): Expected 3D or 4D tensor, but got: {list(input.shape)}')
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f'{name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {list(input.shape)} with dimension {i} being empty')
    return _adaptive_max_cells(input, outs)


def _f_adaptive_max_pool2d(input, output_size, return_indices=False):
    out = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size, output_size]
    if len(out) == 2 or isinstance(output_size, int):
        if input.dim() <= len(out):
            raise ValueError(f'Input dimension should be at least {len(out) + 1}')
        out = [input.shape[input.dim() - 2 + k] if v is None else v for k, v in enumerate(out)]
    v, i = _adaptive_max_pool2d_checked(input, out, 'adaptive_max_pool2d')
    return (v, i) if return_indices else v


def _f_adaptive_max_pool1d(input, output_size, return_indices=False):
    out = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size]
    if len(out) != 1:
        raise RuntimeError(f"adaptive_max_pool1d() argument 'output_size' should contain one int (got {len(out)})")
    if input.dim() not in (2, 3):
        raise RuntimeError(f'adaptive_max_pool1d(): Expected 2D or 3D tensor, but got: {list(input.shape)}')
    v, i = _adaptive_max_pool2d_checked(input.unsqueeze(-2), [1, out[0]], 'adaptive_max_pool2d')
    v, i = v.squeeze(-2), i.squeeze(-2)
    return (v, i) if return_indices else v


def _f_adaptive_avg_pool1d(input, output_size):
    out = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size]
    if len(out) != 1:
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'output_size' should contain one int (got {len(out)})")
    if out[0] < 0:
        raise RuntimeError(f'adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {{1, {out[0]}}}')
    return _adaptive_1d(input, output_size, lambda t: t.mean(-1))


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return _f_max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                             self.return_indices)


class AvgPool1d(_AvgPoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        # Module's __init__, not _AvgPoolNd's: PyTorch's _AvgPoolNd has none, so its AvgPool1d
        # sets only these five fields
        Module.__init__(self)
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if (stride is not None) else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return _f_avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return _f_adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return _f_adaptive_avg_pool1d(input, self.output_size)


# ---- channel dropout: one Bernoulli draw per (sample, channel), as ATen's feature dropout ----

def _f_dropout2d(input, p=0.5, training=True, inplace=False):
    # functional.dropout2d: ATen's feature_dropout, one Bernoulli draw per (N, C) pair; a 3-D
    # input is read as (N, C, L) (PyTorch's historical 1-D behaviour, with its warning), and
    # other ranks only warn
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        _C.warn(f'dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated and will result in an '
                f'error in a future release. To retain the behavior and silence this warning, please use dropout '
                f'instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial '
                f'dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).')
    if inp_dim == 3:
        _C.warn('dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is '
                'desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will '
                'change in a future release to interpret the input as one without a batch dimension, i.e. shape '
                '(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d '
                'instead.')
    out = _dropout_impl(input, p, training, True, False)
    return _act_result(input, lambda t: out, inplace) if out is not input else input


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
                                   'max_pool2d', 'max_unpool1d', 'max_unpool2d', 'max_unpool3d', 'adaptive_max_pool2d',
                                   'max_pool3d', 'avg_pool3d', 'avg_pool2d',
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
        if target.dim() >= 1 and target.shape[0] != n:
            # nll_loss_nd's batch check comes before the target's shape
            raise ValueError(f'Expected input batch_size ({n}) to match target batch_size ({target.shape[0]}).')
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


def _f_nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                reduction='mean'):
    # ATen's nll_loss_nd: 1-D and 2-D inputs take the native kernel; an (N, C, d1, ...) input
    # is nll_loss2d over its (batch, position) pairs in row-major order, the order in which
    # the native kernel sums the (N * d1 * ..., C) rows made here
    if not (isinstance(input, torch.Tensor) and isinstance(target, torch.Tensor) and input.dim() > 2):
        return _native_nll_loss(input, target, weight=weight, size_average=size_average, ignore_index=ignore_index,
                                reduce=reduce, reduction=reduction)
    legacy = _legacy_reduction(size_average, reduce)
    if legacy is not None:
        reduction = legacy
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if target.dim() >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f'Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0]}).')
    n, c = input.shape[0], input.shape[1]
    want = [n] + list(input.shape[2:])
    if input.dim() == 4:
        if target.dim() != 3:
            raise RuntimeError(f'only batches of spatial targets supported (3D tensors) but got targets of dimension: '
                               f'{target.dim()}')
        if list(target.shape) != want:
            raise RuntimeError(f"input and target batch or spatial sizes don't match: target {list(target.shape)}, "
                               f'input {list(input.shape)}')
    elif list(target.shape) != want:
        raise RuntimeError(f'Expected target size {want}, got {list(target.shape)}')
    x2 = input.movedim(1, -1).reshape(-1, c)
    r = _native_nll_loss(x2, target.reshape(-1), weight=weight, ignore_index=ignore_index, reduction=reduction)
    return r.reshape(*want) if reduction == 'none' else r


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['cross_entropy', 'nll_loss']


# ---- transposed convolution (a stride-1 convolution over the input spread out by the stride,
# with the kernel flipped), padding and nearest upsampling ----

_PAD_MODES = ('constant', 'reflect', 'replicate', 'circular')


def _pad_index(mode, lo, n, hi):
    # the source index of each output position along one padded dimension
    out = []
    for i in range(-lo, n + hi):
        if mode == 'replicate':
            j = min(max(i, 0), n - 1)
        elif mode == 'reflect':
            j = -i if i < 0 else (2 * (n - 1) - i if i >= n else i)
        else:
            j = i % n
        out.append(j)
    return out


def _f_pad_indexed(input, pad, mode):
    # reflect / replicate / circular: every output element is a copy of one input element,
    # chosen per padded dimension (aten/src/ATen/native/PadNd.cpp, ReflectionPad.cpp,
    # ReplicationPadding.cpp, the circular case of _pad_circular)
    k = len(pad) // 2
    ndim = input.dim()
    if not ((k == 1 and ndim in (2, 3)) or (k == 2 and ndim in (3, 4)) or (k == 3 and ndim in (4, 5))):
        raise NotImplementedError(
            f'Padding size {len(pad)} is not supported for {ndim}D input tensor.\n'
            'Supported combinations for non-constant padding:\n'
            '  - 2D or 3D input: padding size = 2 (pads last dimension)\n'
            '  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n'
            '  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)')
    shape = list(input.shape)
    names = ['D', 'H', 'W'][3 - k:]
    if mode == 'circular':
        # outermost padded dimension first, as _pad_circular checks them
        for j in range(k):
            d = ndim - k + j
            lo, hi = pad[2 * (k - 1 - j)], pad[2 * (k - 1 - j) + 1]
            if lo > shape[d] or hi > shape[d]:
                raise RuntimeError('Padding value causes wrapping around more than once.')
            if shape[d] + lo + hi < 0:
                raise RuntimeError('Negative padding value is resulting in an empty dimension')
        return _pad_circular(input, pad, k)
    else:
        batched = ndim == k + 2
        if any(s == 0 for s in shape[1 if batched else 0:]):
            raise RuntimeError(f'Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: {shape}')
        if mode == 'reflect':
            for i in range(k):
                d = ndim - 1 - i
                lo, hi = pad[2 * i], pad[2 * i + 1]
                if lo >= shape[d] or hi >= shape[d]:
                    raise RuntimeError(f'Argument #{4 + 2 * i}: Padding size should be less than the corresponding input dimension, but got: padding ({lo}, {hi}) at dimension {d} of input {shape}')
        outs = [shape[ndim - k + j] + pad[2 * (k - 1 - j)] + pad[2 * (k - 1 - j) + 1] for j in range(k)]
        if any(o < 1 for o in outs):
            ins = [shape[ndim - k + j] for j in range(k)]
            if k == 1:
                raise RuntimeError(f'input (W: {ins[0]}) is too small. Calculated output W: {outs[0]}')
            raise RuntimeError('Calculated output ' + ' '.join(f'{n}: {o}' for n, o in zip(names, outs))
                               + ' must be >= 1 in every dimension (input '
                               + ', '.join(f'{n}: {s}' for n, s in zip(names, ins)) + ')')
    x = input
    for i in range(k):
        d = ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = x.shape[d]
        if n == 0:
            # an empty batch: only the shape changes
            new = list(x.shape)
            new[d] = n + lo + hi
            x = torch.zeros(new, dtype=x.dtype, device=x.device)
            continue
        idx = _pad_index(mode, lo, n, hi)
        x = x.index_select(d, torch.tensor(idx, dtype=torch.int64, device=x.device))
    return x


def _pad_circular(input, pad, k):
    # aten's _pad_circular: copy the input, cropped by the negative pads, into the middle of
    # the output, then fill each dimension's left and right pads (last dimension first) by
    # copying from the output itself. When a pad is wider than what is left after cropping,
    # source and destination overlap: copy_ refuses when the slices are contiguous in memory,
    # and otherwise copies element by element in order.
    shape = list(input.shape)
    ndim = len(shape)
    out_shape = list(shape)
    for i in range(k):
        d = ndim - 1 - i
        out_shape[d] = shape[d] + pad[2 * i] + pad[2 * i + 1]
    per_dim = []
    for i in range(k):
        d = ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = shape[d]
        start = max(-lo, 0)
        kept = n - start - max(-hi, 0)
        lo_p, hi_p = max(lo, 0), max(hi, 0)
        size = out_shape[d]
        src = [None] * size
        if kept < 0:
            # the crops overlap: PyTorch's output holds memory it never wrote
            per_dim.append((d, [0] * size))
            continue
        for t in range(kept):
            src[lo_p + t] = start + t
        leading = 1
        for s_ in out_shape[:d]:
            leading *= s_
        contiguous = leading == 1 and 0 not in out_shape
        for pad_w, dst0, src0 in ((lo, 0, size - lo - hi_p), (hi, size - hi, lo_p)):
            if pad_w <= 0:
                continue
            if contiguous and src0 < dst0 + pad_w and dst0 < src0 + pad_w and src0 != dst0:
                raise RuntimeError('unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.')
            for t in range(pad_w):
                # a source outside the output reads memory PyTorch never wrote: any value
                src[dst0 + t] = src[src0 + t] if 0 <= src0 + t < size else None
        per_dim.append((d, [0 if j is None else j for j in src]))
    x = input
    for d, idx in per_dim:
        if x.numel() == 0 or not idx:
            new = list(x.shape)
            new[d] = len(idx)
            x = torch.zeros(new, dtype=x.dtype, device=x.device)
        else:
            x = x.index_select(d, torch.tensor(idx, dtype=torch.int64, device=x.device))
    return x


def _f_pad(input, pad, mode='constant', value=None):
    if mode not in _PAD_MODES:
        raise NotImplementedError(f'Unrecognised padding mode {mode}')
    pad = list(pad)
    if len(pad) % 2 != 0:
        raise RuntimeError('Padding length must be divisible by 2')
    if len(pad) // 2 > input.dim():
        raise RuntimeError('Padding length should be less than or equal to two times the input dimension but got padding length ' + str(len(pad)) + ' and input of dimension ' + str(input.dim()))
    if mode != 'constant':
        if value is not None and value != 0:
            raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
        return _f_pad_indexed(input, pad, mode)
    fill = 0.0 if value is None else value
    # PyTorch's one ConstantPadNdBackward0 node (edge: the input)
    return _C._node('ConstantPadNdBackward0', lambda t: _constant_pad(t, pad, fill), input)


def _constant_pad(input, pad, fill):
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


def _contiguous_channels_last(shape):
    # is_contiguous(channels_last) of a row-major tensor of this shape: size-1 dims are free
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    order = [1] + list(range(len(shape) - 1, 1, -1)) + [0]
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _f32(v):
    return torch.tensor(v, dtype=torch.float32).item()


def _interp_source_index_cl(in_size, out_size, scale_factor, exact):
    # nearest_idx / nearest_exact_idx of the channels-last kernel: a float scale; nearest keeps
    # the index when the size is unchanged and halves it when it doubles
    scale = _f32(1.0 / scale_factor) if scale_factor is not None and scale_factor > 0 else \
        _f32(_f32(float(in_size)) / _f32(float(out_size)))
    out = []
    for o in range(out_size):
        if exact:
            j = int(math.floor(_f32((o + 0.5) * scale)))
        elif out_size == in_size:
            j = o
        elif out_size == 2 * in_size:
            j = o >> 1
        else:
            j = int(math.floor(_f32(_f32(float(o)) * scale)))
        out.append(min(j, in_size - 1))
    return torch.tensor(out, dtype=torch.int64)


def _interp_source_index(in_size, out_size, scale_factor, exact, opdt):
    # HelperInterpNearest / HelperInterpNearestExact (aten/src/ATen/native/cpu/UpSampleKernel.cpp):
    # the scale and source positions in the input's opmath type, floorf of the position (a
    # float64 position is narrowed to float32 first, as floorf takes a float)
    if scale_factor is not None and scale_factor > 0:
        scale = torch.tensor(1.0 / scale_factor, dtype=opdt)
    else:
        scale = torch.tensor(float(in_size), dtype=opdt) / torch.tensor(float(out_size), dtype=opdt)
    o = torch.arange(out_size, dtype=opdt)
    if exact:
        # scale * (o + 0.5) - 0.5, which the compiler fuses into one multiply-add, then + 0.5
        src = torch.addcmul(torch.full((out_size,), -0.5, dtype=opdt), o + 0.5, scale.expand(out_size))
        src = src.clamp(min=0) + 0.5
    else:
        src = o * scale
    idx = torch.floor(src.to(torch.float32)).long()
    return idx.clamp(max=in_size - 1)


def _upsample_sizes(input, output_size, scale_factors):
    # ATen's upsample_compute_output_size, shared by every upsample kernel (UpSample.h): the
    # spatial dims, the input's sizes in them and the output's (from the scale factors when no
    # size is given), both checked positive.
    dim = input.dim() - 2
    ins = list(input.shape[2:])
    if output_size is None:
        output_size = [int(math.floor(float(ins[i] * scale_factors[i]))) for i in range(dim)]
    names = ['D', 'H', 'W'][3 - dim:]
    if any(s <= 0 for s in ins) or any(s <= 0 for s in output_size):
        raise RuntimeError('Input and output sizes should be greater than 0, but got input ('
                           + ', '.join(f'{n}: {s}' for n, s in zip(names, ins)) + ') and output ('
                           + ', '.join(f'{n}: {s}' for n, s in zip(names, output_size)) + ')')
    return dim, ins, output_size


def _upsample_nearest(input, output_size, scale_factors, exact):
    dim, ins, output_size = _upsample_sizes(input, output_size, scale_factors)
    opdt = torch.float64 if input.dtype == torch.float64 else torch.float32
    # a 4-D/5-D input that is also contiguous as channels-last (one channel, say) takes
    # ATen's channels-last kernel, whose index rule differs
    channels_last = dim >= 2 and _contiguous_channels_last(list(input.shape))
    x = input
    for k in range(dim):
        sf = scale_factors[k] if scale_factors is not None else None
        if channels_last:
            idx = _interp_source_index_cl(ins[k], output_size[k], sf, exact)
        elif dim == 2 and not exact and output_size[k] == ins[k]:
            # measured on 2.15: 2-D nearest keeps a dimension whose size does not change, 1-D
            # nearest does not (3-D nearest with a non-integer scale is not matched yet)
            continue
        else:
            idx = _interp_source_index(ins[k], output_size[k], sf, exact, opdt)
        x = x.index_select(2 + k, idx.to(input.device))
    return x


def _f_interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                   recompute_scale_factor=None, antialias=False):
    # torch.nn.functional.interpolate's own argument handling, then the mode's kernel
    if mode in ('nearest', 'area', 'nearest-exact'):
        if align_corners is not None:
            raise ValueError('align_corners option can only be set with the interpolating modes: '
                             'linear | bilinear | bicubic | trilinear')
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError('only one of size or scale_factor should be defined')
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError('Input and output must have the same number of spatial dimensions, but got '
                                 f'input with spatial dimensions of {list(input.shape[2:])} and output size of {size}. '
                                 'Please provide input tensor in (N, C, d1, d2, ...,dK) format and '
                                 'output size in (o1, o2, ...,oK) format.')
            output_size = list(size)
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError('Input and scale_factor must have the same number of spatial dimensions, but '
                                 f'got input with spatial dimensions of {list(input.shape[2:])} and '
                                 f'scale_factor of shape {scale_factor}. '
                                 'Please provide input tensor in (N, C, d1, d2, ...,dK) format and '
                                 'scale_factor in (s1, s2, ...,sK) format.')
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError('either size or scale_factor should be defined')
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError('recompute_scale_factor is not meaningful with an explicit size.')
    if mode == 'area' and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(math.floor(float(input.shape[i + 2] * scale_factors[i]))) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ('bilinear', 'bicubic', 'lanczos') and input.dim() == 4):
        raise ValueError('Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and '
                         'requires a 4-D tensor as input')
    if 1 <= dim <= 3 and mode in ('nearest', 'nearest-exact'):
        return _upsample_nearest(input, output_size, scale_factors, mode == 'nearest-exact')
    if dim == 1 and mode == 'area':
        return functional.adaptive_avg_pool1d(input, output_size)
    if dim == 2 and mode == 'area':
        return functional.adaptive_avg_pool2d(input, output_size)
    if dim == 3 and mode == 'area':
        return functional.adaptive_avg_pool3d(input, output_size)
    wants = {'linear': 3, 'bilinear': 4, 'trilinear': 5, 'bicubic': 4}
    if mode in ('linear', 'trilinear') and input.dim() == wants[mode] and not antialias:
        return _upsample_linear(input, output_size, scale_factors, align_corners)
    if mode == 'bilinear' and input.dim() == 4 and not antialias:
        return _C._composite('UpsampleBilinear2DBackward0', _upsample_bilinear2d, input, output_size,
                             scale_factors, align_corners)
    if mode == 'bicubic' and input.dim() == 4 and not antialias:
        return _C._composite('UpsampleBicubic2DBackward0', _upsample_bicubic2d, input, output_size,
                             scale_factors, align_corners)
    if mode in wants and input.dim() == wants[mode]:
        raise NotImplementedError(f"cudatutor: interpolate mode='{mode}' is not supported yet")
    if mode in ('linear', 'bilinear', 'trilinear') and input.dim() in (3, 4, 5):
        raise NotImplementedError(f'Got {input.dim()}D input, but {mode} mode needs {wants[mode]}D input')
    raise NotImplementedError('Input Error: Only 3D, 4D and 5D input Tensors supported'
                              f' (got {input.dim()}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact'
                              f' (got {mode})')


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
        return _f_interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                              recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = 'scale_factor=' + repr(self.scale_factor)
        else:
            info = 'size=' + repr(self.size)
        return info + ', mode=' + repr(self.mode)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['pad', 'interpolate']

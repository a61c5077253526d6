# torch.optim for cudatutor: torch/optim/optimizer.py and the `_single_tensor_*` update rules of
# sgd.py, adam.py (AdamW is Adam with decoupled weight decay), adamax.py, nadam.py, radam.py,
# rmsprop.py, adagrad.py, adadelta.py, asgd.py, rprop.py and lbfgs.py of PyTorch 2.15, op for op
# under no_grad. That is the path PyTorch takes for CPU tensors (_default_to_fused_or_foreach
# picks foreach only for CUDA ones; an explicit foreach=True or fused=True takes the same
# single-tensor path here, whose last float bits can differ from PyTorch's foreach kernels).
# add(alpha=), lerp_, addcmul_ and addcdiv_ are the engine's fused kernels and the Python-side
# numbers (bias corrections, 1 - beta) are Python floats computed as the source computes them,
# so float32 parameters get PyTorch CPU's bits (torch.sqrt aside: see docs/engine.md). On the
# simulated GPU each op launches its kernel (a pending device-side assert can surface there).
# `state` is keyed by the parameter tensors themselves, as PyTorch's is.
import math
import torch
from collections import defaultdict, OrderedDict
# torch.utils.hooks.RemovableHandle: the class torch.nn's hooks hand out serves the optimizers'
# too, with one id counter for both, as in PyTorch; zero_grad clears a parameter as Module's does
from torch.nn import _RemovableHandle, _zero_grad


class _RequiredParameter:
    def __repr__(self):
        return '<required parameter>'


required = _RequiredParameter()

_OPTIM_PY = '/usr/local/lib/python3.11/site-packages/torch/optim/'


def _typename(o):
    # torch.typename
    if isinstance(o, torch.Tensor):
        return o.type()
    module = ''
    class_name = ''
    m = getattr(o, '__module__', None)
    if m is not None and m != 'builtins' and m != '__builtin__':
        module = m + '.'
    q = getattr(o, '__qualname__', None)
    if q is not None:
        class_name = q
    else:
        class_name = type(o).__name__
    return module + class_name


def _is_sparse(t):
    # the engine has no sparse layout: every tensor is strided
    return getattr(t, 'is_sparse', False)


def _get_value(x):
    return x.item() if isinstance(x, torch.Tensor) else x


def _to_scalar(x):
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_scalar_dtype(is_fused=None):
    if is_fused:
        return torch.float32
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _zero_step():
    return torch.tensor(0.0, dtype=_get_scalar_dtype())


_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


def register_optimizer_step_pre_hook(hook):
    return _RemovableHandle(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    return _RemovableHandle(_global_optimizer_post_hooks, hook)


def _check(ok, msg):
    if not ok:
        raise ValueError(msg)


def _check_lr(lr):
    if isinstance(lr, torch.Tensor) and lr.numel() != 1:
        raise ValueError('Tensor lr must be 1-element')


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        if isinstance(params, torch.Tensor):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, '
                            'but got ' + _typename(params))
        elif isinstance(params, set):
            torch._C.warn('optimizer parameters need to be organized in ordered collections, but the ordering of '
                          'tensors in sets will change between runs. Please use a list instead. This will be an '
                          'error in a future release.', category='FutureWarning')
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        self._warned_capturable_if_run_uncaptured = True

    def __getstate__(self):
        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault('differentiable', False)

    def __repr__(self):
        format_string = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            format_string += '\n'
            format_string += f'Parameter Group {i}\n'
            for key in sorted(group.keys()):
                if key != 'params':
                    format_string += f'    {key}: {group[key]}\n'
        format_string += ')'
        return format_string

    def _call_step_pre_hooks(self, args, kwargs):
        for pre_hook in list(_global_optimizer_pre_hooks.values()) + list(self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        f'{pre_hook} must return None or a tuple of (new_args, new_kwargs), but got {result}.')
        return args, kwargs

    def _register_hook(self, hooks, hook, prepend=False):
        # One handle per hook, keyed by its id; `prepend` puts it first, as optimizer.py does.
        handle = _RemovableHandle(hooks, hook)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook):
        return self._register_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        return self._register_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        return self._register_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        return self._register_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        return self._register_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        return self._register_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def state_dict(self):
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        param_mappings = {}
        start_index = 0
        param_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != 'params'}
            i = start_index
            for p in group['params']:
                if id(p) not in param_mappings:
                    param_mappings[id(p)] = i
                i += 1
            packed['params'] = [param_mappings[id(p)] for p in group['params']]
            start_index += len(packed['params'])
            param_groups.append(packed)
        packed_state = {}
        for k, v in self.state.items():
            packed_state[param_mappings[id(k)] if isinstance(k, torch.Tensor) else k] = v
        state_dict = {'state': packed_state, 'param_groups': param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        fused = False
        capturable = False
        for pg in param_groups:
            if param_id in pg['params']:
                fused = pg.get('fused', False)
                capturable = pg.get('capturable', False)
                break
        if key == 'step':
            if capturable or fused:
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict):
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        groups = self.param_groups
        saved_groups = _deepcopy(state_dict['param_groups'])
        if len(groups) != len(saved_groups):
            raise ValueError('loaded state dict has a different number of parameter groups')
        for g, sg in zip(groups, saved_groups):
            if len(g['params']) != len(sg['params']):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        id_map = {}
        for g, sg in zip(groups, saved_groups):
            for old_id, p in zip(sg['params'], g['params']):
                id_map[old_id] = p

        def _cast(param, value, param_id, param_groups, key=None):
            if isinstance(value, torch.Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id, param_groups, key)
            elif isinstance(value, dict):
                return {k: _cast(param, v, param_id, param_groups, k) for k, v in value.items()}
            elif isinstance(value, (list, tuple)):
                return type(value)([_cast(param, v, param_id, param_groups) for v in value])
            return value

        state = defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, k, state_dict['param_groups'])
            else:
                state[k] = v
        param_groups = []
        for g, ng in zip(groups, saved_groups):
            ng['params'] = g['params']
            if 'param_names' in g and 'param_names' not in ng:
                ng['param_names'] = g['param_names']
            param_groups.append(ng)
        self.__setstate__({'state': state, 'param_groups': param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group['params']:
                _zero_grad(p, set_to_none)

    def step(self, closure=None):
        raise NotImplementedError

    def _run_step(self, closure, args, kwargs):
        # profile_hook_step: the hooks around the subclass's _step, which does the work
        args, kwargs = self._call_step_pre_hooks(args, kwargs)
        out = self._step(*args, **kwargs)
        for post_hook in list(self._optimizer_step_post_hooks.values()) + list(_global_optimizer_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f'param_group must be a dict, but got {type(param_group)}')
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of '
                            'tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)
        extracted_param_tensors = []
        extracted_param_names = []
        for param in param_group['params']:
            if isinstance(param, tuple):
                extracted_param_names.append(param[0])
                extracted_param_tensors.append(param[1])
            else:
                extracted_param_tensors.append(param)
        param_group['params'] = extracted_param_tensors
        if len(extracted_param_names) != 0:
            if len(extracted_param_names) == len(extracted_param_tensors):
                param_group['param_names'] = extracted_param_names
            else:
                raise ValueError('all optimizer params should be with/without names. Some param names are missing')
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(param))
            if not self.defaults.get('differentiable', None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            else:
                param_group.setdefault(name, default)
        params = param_group['params']
        seen = []
        for p in params:
            for q in seen:
                if p is q:
                    torch._C.warn('optimizer contains a parameter group with duplicate parameters; in future, this '
                                  'will cause an error; see github.com/pytorch/pytorch/issues/40967 for more '
                                  'information')
                    break
            seen.append(p)
        for group in self.param_groups:
            if ('param_names' in param_group) != ('param_names' in group):
                current_group_txt = 'with names' if 'param_names' in param_group else 'without names'
                raise ValueError('all optimizer param groups should be with/without names. '
                                 f'cannot add param group {current_group_txt} to the optimizer')
        for group in self.param_groups:
            for p in group['params']:
                for q in param_group['params']:
                    if p is q:
                        raise ValueError('some parameters appear in more than one parameter group')
        self.param_groups.append(param_group)


def _deepcopy(v):
    if isinstance(v, dict):
        return {k: _deepcopy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deepcopy(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_deepcopy(x) for x in v)
    if isinstance(v, torch.Tensor):
        return v.clone()
    return v


def _grad_mode(group):
    # _use_grad_for_differentiable: the update runs with autograd only for differentiable=True
    if group.get('differentiable', False):
        return torch.enable_grad()
    return torch.no_grad()


def _call_closure(closure):
    loss = None
    if closure is not None:
        with torch.enable_grad():
            loss = closure()
    return loss


def _check_fused(self, fused, differentiable, foreach):
    if fused:
        if differentiable:
            raise RuntimeError('`fused` does not support `differentiable`')
        if foreach:
            raise RuntimeError('`fused` and `foreach` cannot be `True` together.')


def _fused_device_check(p):
    if not p.is_floating_point():
        raise RuntimeError('`fused=True` requires all the params to be floating point Tensors of supported devices: '
                           f"['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but {p.dtype} and "
                           f'{p.device.type}')


# ---------------------------------------------------------------------------------------- SGD
class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        _check(not lr < 0.0, f'Invalid learning rate: {lr}')
        _check(not momentum < 0.0, f'Invalid momentum value: {momentum}')
        _check(not weight_decay < 0.0, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'momentum': momentum, 'dampening': dampening, 'weight_decay': weight_decay,
                    'nesterov': nesterov, 'maximize': maximize, 'foreach': foreach,
                    'differentiable': differentiable, 'fused': fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, defaults)
        _check_fused(self, fused, differentiable, foreach)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params = []
            grads = []
            momentum_buffer_list = []
            for p in group['params']:
                if p.grad is not None:
                    if group['fused']:
                        _fused_device_check(p)
                    params.append(p)
                    grads.append(p.grad)
                    if group['momentum'] != 0:
                        state = self.state[p]
                        momentum_buffer_list.append(state.get('momentum_buffer'))
            with _grad_mode(group):
                _single_tensor_sgd(params, grads, momentum_buffer_list, weight_decay=group['weight_decay'],
                                   momentum=group['momentum'], lr=group['lr'], dampening=group['dampening'],
                                   nesterov=group['nesterov'], maximize=group['maximize'])
            if group['momentum'] != 0:
                for p, momentum_buffer in zip(params, momentum_buffer_list):
                    self.state[p]['momentum_buffer'] = momentum_buffer
        return loss


def _plain_numbers(*values):
    # Python ints and floats (not bools, tensors or other number types): what the engine's
    # one-pass optimiser steps take
    return all(type(v) in (int, float) for v in values)


def _single_tensor_sgd(params, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov,
                       maximize):
    lr = _to_scalar(lr)
    # one pass per parameter in the engine (the same float32 ops per element, so the same
    # bits) where the numbers are plain; the first momentum step makes its buffer below
    fused = _plain_numbers(lr, weight_decay, momentum, dampening)
    for i, param in enumerate(params):
        if fused and (momentum == 0 or momentum_buffer_list[i] is not None) and torch._C._sgd_update_(
                param, grads[i], momentum_buffer_list[i] if momentum != 0 else None, bool(maximize),
                weight_decay if weight_decay != 0 else None, momentum if momentum != 0 else None,
                1 - dampening, bool(nesterov), -lr):
            continue
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            if isinstance(weight_decay, torch.Tensor) and weight_decay.requires_grad:
                grad = grad.addcmul_(param.clone(), weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            if nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf
        if isinstance(lr, torch.Tensor) and lr.requires_grad:
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)


# --------------------------------------------------------------------------------- Adam, AdamW
def _check_adam_args(lr, betas, eps, weight_decay, foreach, capturable):
    if isinstance(lr, torch.Tensor):
        if foreach and not capturable:
            raise ValueError('lr as a Tensor is not supported for capturable=False and foreach=True')
        if lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
    _check(0.0 <= lr, f'Invalid learning rate: {lr}')
    _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
    _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
    _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
    _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
    if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
            or (isinstance(betas[0], torch.Tensor) and isinstance(betas[1], torch.Tensor))):
        raise ValueError('betas must be either both floats or both Tensors')
    for i in (0, 1):
        if isinstance(betas[i], torch.Tensor):
            if not capturable and foreach:
                raise ValueError(f'betas[{i}] as a Tensor is not supported for capturable=False and foreach=True')
            if betas[i].numel() != 1:
                raise ValueError(f'Tensor betas[{i}] must be 1-element')
    return (_to_scalar(betas[0]), _to_scalar(betas[1]))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        betas = _check_adam_args(lr, betas, eps, weight_decay, foreach, capturable)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'amsgrad': amsgrad, 'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable, 'fused': fused,
                    'decoupled_weight_decay': decoupled_weight_decay}
        super().__init__(params, defaults)
        _check_fused(self, fused, differentiable, foreach)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        name = self.__class__.__name__ if self.__class__.__name__ in ('Adam', 'AdamW') else 'Adam'
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError(f'{name} does not support sparse gradients, please consider SparseAdam instead')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    if group['fused']:
                        _fused_device_check(p)
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype(is_fused=group['fused']))
                                     if group['capturable'] or group['fused'] else _zero_step())
                    state['exp_avg'] = torch.zeros_like(p)
                    state['exp_avg_sq'] = torch.zeros_like(p)
                    if group['amsgrad']:
                        state['max_exp_avg_sq'] = torch.zeros_like(p)
                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
                if group['amsgrad']:
                    max_exp_avg_sqs.append(state['max_exp_avg_sq'])
                if group['differentiable'] and state['step'].requires_grad:
                    raise RuntimeError('`requires_grad` is not supported for `step` in differentiable mode')
                steps.append(state['step'])
            beta1, beta2 = group['betas']
            with _grad_mode(group):
                _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps,
                                    amsgrad=group['amsgrad'], beta1=beta1, beta2=beta2, lr=group['lr'],
                                    weight_decay=group['weight_decay'], eps=group['eps'],
                                    maximize=group['maximize'], decoupled_weight_decay=group['decoupled_weight_decay'])
        return loss


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad, beta1,
                        beta2, lr, weight_decay, eps, maximize, decoupled_weight_decay):
    lr = _to_scalar(lr)
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)
    # one pass per parameter in the engine (the same float32 ops per element, so the same
    # bits) where the numbers are plain; the Python numbers below are computed as here
    fused = _plain_numbers(lr, weight_decay, beta1, beta2, eps)
    for i, param in enumerate(params):
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t += 1
        if fused:
            step = _get_value(step_t)
            decoupled = weight_decay != 0 and decoupled_weight_decay
            if torch._C._adam_update_(
                    param, grads[i], exp_avg, exp_avg_sq, max_exp_avg_sqs[i] if amsgrad else None,
                    bool(maximize), 1 - lr * weight_decay if decoupled else None,
                    weight_decay if weight_decay != 0 and not decoupled else None, 1 - beta1, beta2,
                    1 - beta2, (1 - beta2 ** step) ** 0.5, eps, -(lr / (1 - beta1 ** step))):
                continue
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = _get_value(step_t)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if amsgrad:
            torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group['decoupled_weight_decay'] = True


# ------------------------------------------------------------------------------------- Adamax
class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
        _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable, 'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_infs, steps = [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('Adamax does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype()) if group['capturable']
                                     else _zero_step())
                    state['exp_avg'] = torch.zeros_like(p)
                    state['exp_inf'] = torch.zeros_like(p)
                exp_avgs.append(state['exp_avg'])
                exp_infs.append(state['exp_inf'])
                steps.append(state['step'])
            beta1, beta2 = group['betas']
            with _grad_mode(group):
                _single_tensor_adamax(params, grads, exp_avgs, exp_infs, steps, eps=group['eps'], beta1=beta1,
                                      beta2=beta2, lr=group['lr'], weight_decay=group['weight_decay'],
                                      maximize=group['maximize'], differentiable=group['differentiable'])
        return loss


def _single_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr, weight_decay,
                          maximize, differentiable):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        if not differentiable:
            torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        else:
            norm_buf = torch.cat([exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
            exp_inf.copy_(torch.amax(norm_buf, 0, keepdim=False))
        bias_correction = 1 - beta1 ** _get_value(step_t)
        clr = lr / bias_correction
        param.addcdiv_(exp_avg, exp_inf, value=-clr)


# -------------------------------------------------------------------------------------- NAdam
class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
        _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        _check(0.0 <= momentum_decay, f'Invalid momentum_decay value: {momentum_decay}')
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'momentum_decay': momentum_decay, 'decoupled_weight_decay': decoupled_weight_decay,
                    'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, mu_products, steps = [], [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('NAdam does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype()) if group['capturable']
                                     else _zero_step())
                    state['mu_product'] = (torch.ones((), dtype=_get_scalar_dtype()) if group['capturable']
                                           else torch.tensor(1.0, dtype=_get_scalar_dtype()))
                    state['exp_avg'] = torch.zeros_like(p)
                    state['exp_avg_sq'] = torch.zeros_like(p)
                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
                mu_products.append(state['mu_product'])
                steps.append(state['step'])
            beta1, beta2 = group['betas']
            with _grad_mode(group):
                _single_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, steps, beta1=beta1,
                                     beta2=beta2, lr=group['lr'], weight_decay=group['weight_decay'],
                                     momentum_decay=group['momentum_decay'], eps=group['eps'],
                                     decoupled_weight_decay=group['decoupled_weight_decay'],
                                     maximize=group['maximize'], differentiable=group['differentiable'])
        return loss


def _single_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, *, beta1, beta2, lr,
                         weight_decay, momentum_decay, eps, decoupled_weight_decay, maximize, differentiable):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        mu_product = mu_products[i]
        step_t = state_steps[i]
        step_t += 1
        step = _get_value(step_t)
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if differentiable:
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            param.addcdiv_(grad, denom)
            param.addcdiv_(exp_avg, denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            param.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))


# -------------------------------------------------------------------------------------- RAdam
class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
        _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize,
                    'foreach': foreach, 'capturable': capturable, 'decoupled_weight_decay': decoupled_weight_decay,
                    'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, steps = [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('RAdam does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype()) if group['capturable']
                                     else _zero_step())
                    state['exp_avg'] = torch.zeros_like(p)
                    state['exp_avg_sq'] = torch.zeros_like(p)
                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
                steps.append(state['step'])
            beta1, beta2 = group['betas']
            with _grad_mode(group):
                _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, steps, beta1=beta1, beta2=beta2,
                                     lr=group['lr'], weight_decay=group['weight_decay'], eps=group['eps'],
                                     decoupled_weight_decay=group['decoupled_weight_decay'],
                                     differentiable=group['differentiable'], maximize=group['maximize'])
        return loss


def _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr, weight_decay, eps,
                         decoupled_weight_decay, differentiable, maximize):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t += 1
        step = _get_value(step_t)
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            if differentiable:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps)
            else:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add_(eps)
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq_sqrt
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)


# ------------------------------------------------------------------------------------ RMSprop
class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= momentum, f'Invalid momentum value: {momentum}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        _check(0.0 <= alpha, f'Invalid alpha value: {alpha}')
        defaults = {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps, 'centered': centered,
                    'weight_decay': weight_decay, 'capturable': capturable, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, square_avgs, grad_avgs, momentum_buffers, steps = [], [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('RMSprop does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype()) if group['capturable']
                                     else torch.zeros((), dtype=_get_scalar_dtype()))
                    state['square_avg'] = torch.zeros_like(p)
                    if group['momentum'] > 0:
                        state['momentum_buffer'] = torch.zeros_like(p)
                    if group['centered']:
                        state['grad_avg'] = torch.zeros_like(p)
                square_avgs.append(state['square_avg'])
                steps.append(state['step'])
                if group['momentum'] > 0:
                    momentum_buffers.append(state['momentum_buffer'])
                if group['centered']:
                    grad_avgs.append(state['grad_avg'])
            with _grad_mode(group):
                _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffers, steps,
                                       lr=group['lr'], alpha=group['alpha'], eps=group['eps'],
                                       weight_decay=group['weight_decay'], momentum=group['momentum'],
                                       centered=group['centered'], maximize=group['maximize'],
                                       differentiable=group['differentiable'])
        return loss


def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr, alpha,
                           eps, weight_decay, momentum, centered, maximize, differentiable):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        step = state_steps[i]
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        if differentiable:
            avg = avg.add(eps)
        else:
            avg = avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)


# ------------------------------------------------------------------------------------ Adagrad
class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= lr_decay, f'Invalid lr_decay value: {lr_decay}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        _check(0.0 <= initial_accumulator_value,
               f'Invalid initial_accumulator_value value: {initial_accumulator_value}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        defaults = {'lr': lr, 'lr_decay': lr_decay, 'eps': eps, 'weight_decay': weight_decay,
                    'initial_accumulator_value': initial_accumulator_value, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable, 'fused': fused}
        super().__init__(params, defaults)
        _check_fused(self, fused, differentiable, foreach)
        # Adagrad makes every parameter's state at construction
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = (torch.zeros((), dtype=_get_scalar_dtype(is_fused=group['fused']))
                                 if group['fused'] else _zero_step())
                state['sum'] = torch.full_like(p, initial_accumulator_value)

    def share_memory(self):
        for group in self.param_groups:
            for p in group['params']:
                self.state[p]['sum'].share_memory_()

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, state_sums, steps = [], [], [], []
            for p in group['params']:
                if p.grad is not None:
                    if group['fused']:
                        _fused_device_check(p)
                    params.append(p)
                    grads.append(p.grad)
                    state = self.state[p]
                    state_sums.append(state['sum'])
                    steps.append(state['step'])
            with _grad_mode(group):
                _single_tensor_adagrad(params, grads, state_sums, steps, lr=group['lr'],
                                       weight_decay=group['weight_decay'], lr_decay=group['lr_decay'],
                                       eps=group['eps'], maximize=group['maximize'],
                                       differentiable=group['differentiable'])
        return loss


def _single_tensor_adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay, eps, maximize,
                           differentiable):
    lr = _to_scalar(lr)
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        if differentiable:
            std = state_sum.sqrt() + eps
        else:
            std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)


# ----------------------------------------------------------------------------------- Adadelta
class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= rho <= 1.0, f'Invalid rho value: {rho}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize,
                    'capturable': capturable, 'foreach': foreach, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, square_avgs, acc_deltas, steps = [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('Adadelta does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = (torch.zeros((), dtype=_get_scalar_dtype()) if group['capturable']
                                     else torch.zeros((), dtype=_get_scalar_dtype()))
                    state['square_avg'] = torch.zeros_like(p)
                    state['acc_delta'] = torch.zeros_like(p)
                square_avgs.append(state['square_avg'])
                acc_deltas.append(state['acc_delta'])
                steps.append(state['step'])
            with _grad_mode(group):
                _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, steps, lr=group['lr'],
                                        rho=group['rho'], eps=group['eps'], weight_decay=group['weight_decay'],
                                        maximize=group['maximize'], differentiable=group['differentiable'])
        return loss


def _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps, weight_decay,
                            maximize, differentiable):
    lr = _to_scalar(lr)
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, state_steps):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)


# --------------------------------------------------------------------------------------- ASGD
class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= lambd, f'Invalid lambd value: {lambd}')
        _check(0.0 <= alpha, f'Invalid alpha value: {alpha}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'lambd': lambd, 'alpha': alpha, 't0': t0, 'weight_decay': weight_decay,
                    'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable,
                    'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, mus, axs, etas, steps = [], [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                if _is_sparse(p.grad):
                    raise RuntimeError('ASGD does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.zeros((), dtype=_get_scalar_dtype())
                    state['eta'] = torch.as_tensor(_to_scalar(group['lr']), dtype=_get_scalar_dtype()).clone().detach()
                    state['mu'] = torch.ones((), dtype=_get_scalar_dtype())
                    state['ax'] = torch.zeros_like(p)
                mus.append(state['mu'])
                axs.append(state['ax'])
                etas.append(state['eta'])
                steps.append(state['step'])
            with _grad_mode(group):
                _single_tensor_asgd(params, grads, axs, mus, etas, steps, lambd=group['lambd'], lr=group['lr'],
                                    t0=group['t0'], alpha=group['alpha'], weight_decay=group['weight_decay'],
                                    maximize=group['maximize'])
        return loss


def _single_tensor_asgd(params, grads, axs, mus, etas, state_steps, *, lambd, lr, t0, alpha, weight_decay,
                        maximize):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        mu = mus[i]
        ax = axs[i]
        eta = etas[i]
        step_t = state_steps[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        eta_value = _get_value(eta)
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = _get_value(step_t)
        new_eta = torch.as_tensor(lr / ((1 + lambd * lr * step) ** alpha))
        eta.copy_(new_eta)
        new_mu = torch.as_tensor(1 / max(1, step - t0))
        mu.copy_(new_mu)


# -------------------------------------------------------------------------------------- Rprop
class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 < etas[0] < 1.0 < etas[1], f'Invalid eta values: {etas[0]}, {etas[1]}')
        defaults = {'lr': lr, 'etas': etas, 'step_sizes': step_sizes, 'foreach': foreach, 'maximize': maximize,
                    'differentiable': differentiable, 'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, prevs, step_sizes, steps = [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                params.append(p)
                grad = p.grad
                if _is_sparse(grad):
                    raise RuntimeError('Rprop does not support sparse gradients')
                grads.append(grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.zeros((), dtype=_get_scalar_dtype())
                    state['prev'] = torch.zeros_like(p)
                    state['step_size'] = torch.full_like(grad, _to_scalar(group['lr']))
                prevs.append(state['prev'])
                step_sizes.append(state['step_size'])
                steps.append(state['step'])
            etaminus, etaplus = group['etas']
            step_size_min, step_size_max = group['step_sizes']
            with _grad_mode(group):
                _single_tensor_rprop(params, grads, prevs, step_sizes, steps, step_size_min=step_size_min,
                                     step_size_max=step_size_max, etaminus=etaminus, etaplus=etaplus,
                                     maximize=group['maximize'], differentiable=group['differentiable'])
        return loss


def _single_tensor_rprop(params, grads, prevs, step_sizes, state_steps, *, step_size_min, step_size_max, etaminus,
                         etaplus, maximize, differentiable):
    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        prev = prevs[i]
        step_size = step_sizes[i]
        step = state_steps[i]
        step += 1
        if differentiable:
            sign = grad.mul(prev.clone()).sign()
        else:
            sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


# --------------------------------------------------------------------------------- SparseAdam
class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        _check_lr(lr)
        _check(0.0 < lr, f'Invalid learning rate: {lr}')
        _check(0.0 < eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
        _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'maximize': maximize}
        super().__init__(params, defaults)
        complex_params = []
        for index, param_group in enumerate(self.param_groups):
            for d_index, d_param in enumerate(param_group['params']):
                if False:
                    complex_params.append([index, d_index])
        if complex_params:
            raise ValueError(
                f'Complex params at indices {complex_params}: SparseAdam does not support complex parameters')

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        # the engine has no sparse tensors, so every gradient it can hold is a dense one
        loss = _call_closure(closure)
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    raise RuntimeError('SparseAdam does not support dense gradients, please consider Adam instead')
        return loss


# -------------------------------------------------------------------------------------- LBFGS
def _scalar(x):
    # a 0-dim tensor where ATen takes a Scalar: PyTorch's argument parser converts it with item()
    return x.item() if isinstance(x, torch.Tensor) else x


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    else:
        return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = [t]
            bracket_f = [f_new]
            bracket_g = [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev = tmp
        f_prev = f_new
        g_prev = g_new.clone()
        gtd_prev = gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [0, t]
        bracket_f = [f, f_new]
        bracket_g = [g, g_new]
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos] = t
            bracket_f[high_pos] = f_new
            bracket_g[high_pos] = g_new.clone()
            bracket_gtd[high_pos] = gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos] = bracket[low_pos]
                bracket_f[high_pos] = bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos] = t
            bracket_f[low_pos] = f_new
            bracket_g[low_pos] = g_new.clone()
            bracket_gtd[low_pos] = gtd_new
    t = bracket[low_pos]
    f_new = bracket_f[low_pos]
    g_new = bracket_g[low_pos]
    return f_new, g_new, t, ls_func_evals


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None, *, maximize=False):
        _check_lr(lr)
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {'lr': lr, 'max_iter': max_iter, 'max_eval': max_eval, 'tolerance_grad': tolerance_grad,
                    'tolerance_change': tolerance_change, 'history_size': history_size,
                    'line_search_fn': line_search_fn, 'maximize': maximize}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]['params']
        self._numel_cache = None

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum(p.numel() for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self):
        views = []
        for p in self._params:
            if p.grad is None:
                view = p.new(p.numel()).zero_()
            else:
                view = p.grad.view(-1)
            views.append(view)
        flat_grad = torch.cat(views, 0)
        if self.param_groups[0].get('maximize', False):
            flat_grad.neg_()
        return flat_grad

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=_scalar(step_size))
            offset += numel
        if offset != self._numel():
            raise AssertionError(f'Expected offset {offset} to equal {self._numel()}')

    def _clone_param(self):
        return [p.clone() for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data):
            p.copy_(pdata)

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        with torch.enable_grad():
            out = closure()
        loss = float(out)
        if self.param_groups[0].get('maximize', False):
            loss = -loss
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        return self._run_step(closure, (closure,), {})

    def _step(self, closure):
        with torch.no_grad():
            return self._lbfgs_step(closure)

    def _lbfgs_step(self, closure):
        def closure_with_grad():
            with torch.enable_grad():
                return closure()
        if len(self._params) == 0:
            return closure_with_grad()
        group = self.param_groups[0]
        lr = _to_scalar(group['lr'])
        max_iter = group['max_iter']
        max_eval = group['max_eval']
        tolerance_grad = group['tolerance_grad']
        tolerance_change = group['tolerance_change']
        line_search_fn = group['line_search_fn']
        history_size = group['history_size']
        maximize = group.get('maximize', False)
        state = self.state[self._params[0]]
        state.setdefault('func_evals', 0)
        state.setdefault('n_iter', 0)
        orig_loss = closure_with_grad()
        loss = -float(orig_loss) if maximize else float(orig_loss)
        current_evals = 1
        state['func_evals'] += 1
        flat_grad = self._gather_flat_grad()
        opt_cond = flat_grad.abs().max() <= tolerance_grad
        if opt_cond:
            return orig_loss
        d = state.get('d')
        t = state.get('t')
        old_dirs = state.get('old_dirs')
        old_stps = state.get('old_stps')
        ro = state.get('ro')
        H_diag = state.get('H_diag')
        prev_flat_grad = state.get('prev_flat_grad')
        prev_loss = state.get('prev_loss')
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state['n_iter'] += 1
            if state['n_iter'] == 1:
                d = flat_grad.neg()
                old_dirs = []
                old_stps = []
                ro = []
                H_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                num_old = len(old_dirs)
                if 'al' not in state:
                    state['al'] = [None] * history_size
                al = state['al']
                q = flat_grad.neg()
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=_scalar(-al[i]))
                d = r = torch.mul(q, H_diag)
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=_scalar(al[i] - be_i))
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            if state['n_iter'] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != 'strong_wolfe':
                    raise RuntimeError("only 'strong_wolfe' is supported")
                else:
                    x_init = self._clone_param()

                    def obj_func(x, t, d):
                        return self._directional_evaluate(closure, x, t, d)

                    loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd,
                                                                      max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    with torch.enable_grad():
                        loss = closure()
                    loss = -float(loss) if maximize else float(loss)
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state['func_evals'] += ls_func_evals
            if n_iter == max_iter:
                break
            if current_evals >= max_eval:
                break
            if opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break
        state['d'] = d
        state['t'] = t
        state['old_dirs'] = old_dirs
        state['old_stps'] = old_stps
        state['ro'] = ro
        state['H_diag'] = H_diag
        state['prev_flat_grad'] = prev_flat_grad
        state['prev_loss'] = prev_loss
        return orig_loss



# ------------------------------------------------------------------------------------ Adafactor
class Adafactor(Optimizer):
    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Learning rate should be >= 0 but is: {lr}')
        if not 0.0 >= beta2_decay:
            raise ValueError(f'beta2_decay should be <= 0 but is: {beta2_decay}')
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f'epsilon1 should be >= 0 but is: {eps[0]}')
        if not 0.0 <= eps[1]:
            raise ValueError(f'epsilon2 should be >= 0 but is: {eps[1]}')
        if not 1.0 <= d:
            raise ValueError(f'Clipping threshold d should be >= 1 but is: {d}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'weight_decay should be >= 0 but is: {weight_decay}')
        defaults = {'lr': lr, 'beta2_decay': beta2_decay, 'eps': eps, 'd': d, 'weight_decay': weight_decay,
                    'foreach': foreach, 'maximize': maximize}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, row_vars, col_vars, variances, steps = [], [], [], [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                if _is_sparse(p.grad):
                    raise RuntimeError('Adafactor does not support sparse gradients')
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    if p.grad.dim() > 1:
                        row_shape = list(p.grad.shape)
                        row_shape[-1] = 1
                        state['row_var'] = p.grad.new_zeros(row_shape)
                        col_shape = list(p.grad.shape)
                        col_shape[-2] = 1
                        state['col_var'] = p.grad.new_zeros(col_shape)
                    else:
                        state['variance'] = torch.zeros_like(p.grad)
                row_vars.append(state.get('row_var', None))
                col_vars.append(state.get('col_var', None))
                variances.append(state.get('variance', None))
                steps.append(state['step'])
            eps1, eps2 = group['eps']
            with torch.no_grad():
                _single_tensor_adafactor(params, grads, row_vars, col_vars, variances, steps, d=group['d'],
                                         lr=group['lr'], beta2_decay=group['beta2_decay'],
                                         weight_decay=group['weight_decay'], eps1=eps1, eps2=eps2,
                                         maximize=group['maximize'])
        return loss


def _single_tensor_adafactor(params, grads, row_vars, col_vars, variances, state_steps, *, d, lr, beta2_decay,
                             weight_decay, eps1, eps2, maximize):
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        step_t = state_steps[i]
        row_var = row_vars[i]
        col_var = col_vars[i]
        variance = variances[i]
        if eps1 is None:
            eps1 = torch.finfo(param.dtype).eps
        step_t += 1
        step_float = step_t.item()
        one_minus_beta2_t = step_float ** beta2_decay
        rho_t = min(lr, 1 / (step_float ** 0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            # square_ is pow(x, 2), which ATen computes as x * x
            row_norm = torch.linalg.vector_norm(grad, dim=-1, keepdim=True)
            row_mean = (row_norm * row_norm).div_(grad.size(-1))
            row_var.lerp_(row_mean, one_minus_beta2_t)
            col_norm = torch.linalg.vector_norm(grad, dim=-2, keepdim=True)
            col_mean = (col_norm * col_norm).div_(grad.size(-2))
            col_var.lerp_(col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            grad_squared = grad * grad
            variance.lerp_(grad_squared, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        param.add_(update, alpha=-alpha / denom)


# ----------------------------------------------------------------------------------------- Muon
def _zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps):
    if ns_steps >= 100:
        raise ValueError('Number of steps must be less than 100 for computational efficiency')
    if len(grad.shape) != 2:
        raise ValueError('Input tensor gradient must be a 2D matrix')
    if len(ns_coefficients) != 3:
        raise ValueError('Coefficients must be a tuple of exactly 3 values')
    a, b, c = ns_coefficients
    ortho_grad = grad.to(dtype=torch.bfloat16, copy=True)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = torch.addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = torch.addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr, adjust_lr_fn, param_shape):
    A, B = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == 'original':
        adjusted_ratio = math.sqrt(max(1, A / B))
    elif adjust_lr_fn == 'match_rms_adamw':
        adjusted_ratio = 0.2 * math.sqrt(max(A, B))
    elif adjust_lr_fn == 'spectral_unclamped':
        adjusted_ratio = math.sqrt(A / B)
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


class Muon(Optimizer):
    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(3.4445, -4.7750, 2.0315), eps=1e-7, ns_steps=5, adjust_lr_fn=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Learning rate should be >= 0 but is: {lr}')
        if not 0.0 <= momentum:
            raise ValueError(f'momentum should be >= 0 but is: {momentum}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'weight decay should be >= 0 but is: {weight_decay}')
        if adjust_lr_fn is not None and adjust_lr_fn not in ['original', 'match_rms_adamw', 'spectral_unclamped']:
            raise ValueError(f'Adjust learning rate function {adjust_lr_fn} is not supported')
        defaults = {'lr': lr, 'weight_decay': weight_decay, 'momentum': momentum, 'nesterov': nesterov,
                    'ns_coefficients': ns_coefficients, 'eps': eps, 'ns_steps': ns_steps,
                    'adjust_lr_fn': adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group['params']:
                if p.ndim != 2:
                    raise ValueError(f'Muon only supports 2D parameters whereas we found a parameter with size: '
                                     f'{p.size()}')

    def step(self, closure=None):
        return self._run_step(closure, (), {'closure': closure})

    def _step(self, closure=None):
        loss = _call_closure(closure)
        for group in self.param_groups:
            params, grads, bufs = [], [], []
            for p in group['params']:
                if p.grad is None:
                    continue
                if _is_sparse(p.grad):
                    raise RuntimeError('Muon does not support sparse gradients')
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if 'momentum_buffer' not in state:
                    state['momentum_buffer'] = torch.zeros_like(p.grad)
                bufs.append(state['momentum_buffer'])
            with torch.no_grad():
                lr = _to_scalar(group['lr'])
                for i, param in enumerate(params):
                    grad = grads[i]
                    if grad.ndim != 2:
                        raise ValueError('Param gradient must be a 2D matrix')
                    buf = bufs[i]
                    buf.lerp_(grad, 1 - group['momentum'])
                    update = grad.lerp(buf, group['momentum']) if group['nesterov'] else buf
                    update = _zeropower_via_newtonschulz(update, group['ns_coefficients'], group['ns_steps'],
                                                         group['eps'])
                    adjusted_lr = _adjust_lr(lr, group['adjust_lr_fn'], param.shape)
                    param.mul_(1 - lr * group['weight_decay'])
                    param.add_(update, alpha=-adjusted_lr)
        return loss

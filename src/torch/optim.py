# torch.optim for cudatutor: torch/optim/optimizer.py and the `_single_tensor_*` update rules of
# sgd.py, adam.py (AdamW is Adam with decoupled weight decay), rmsprop.py, adagrad.py and
# adadelta.py of PyTorch 2.15, op for op under no_grad. That is the path PyTorch takes for CPU
# tensors (_default_to_fused_or_foreach picks foreach only for CUDA ones). add(alpha=),
# lerp_, addcmul_ and addcdiv_ are the engine's fused kernels and the Python-side numbers
# (bias corrections, 1 - beta) are Python floats computed as the source computes them, so
# float32 parameters get PyTorch CPU's bits (torch.sqrt aside: see docs/engine.md). On the
# simulated GPU each op launches its kernel (a pending device-side assert can surface there).
# `state` is keyed by the parameter tensors themselves, as PyTorch's is.
import torch
from collections import defaultdict


class _RequiredParameter:
    def __repr__(self):
        return '<required parameter>'


required = _RequiredParameter()


def _typename(o):
    if isinstance(o, torch.Tensor):
        return o.type()
    return type(o).__name__


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, '
                            'but got ' + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

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

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f'param_group must be a dict, but got {type(param_group).__name__}')
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of '
                            'tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(param))
            if not self.defaults.get('differentiable', None) and not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            else:
                param_group.setdefault(name, default)
        for group in self.param_groups:
            for p in group['params']:
                for q in param_group['params']:
                    if p is q:
                        raise ValueError('some parameters appear in more than one parameter group')
        self.param_groups.append(param_group)

    def state_dict(self):
        # parameters become their indices over all groups; state keeps its insertion order
        mapping = {}
        index = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != 'params'}
            for p in group['params']:
                if id(p) not in mapping:
                    mapping[id(p)] = index
                index += 1
            packed['params'] = [mapping[id(p)] for p in group['params']]
            groups.append(packed)
        state = {}
        for k, v in self.state.items():
            state[mapping[id(k)] if isinstance(k, torch.Tensor) else k] = v
        return {'state': state, 'param_groups': groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = [_deepcopy(g) for g in state_dict['param_groups']]
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
        state = defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, None)
            else:
                state[k] = v
        new_groups = []
        for g, sg in zip(groups, saved_groups):
            sg['params'] = g['params']
            new_groups.append(sg)
        self.state = state
        self.param_groups = new_groups

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        self._opt_called = True
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                self._step_group(group)
        return loss

    def _step_group(self, group):
        raise NotImplementedError


def _deepcopy(v):
    if isinstance(v, dict):
        return {k: _deepcopy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deepcopy(x) for x in v]
    if isinstance(v, torch.Tensor):
        return v.clone()
    return v


def _cast(param, value, key):
    # Optimizer._process_value_according_to_param_policy: state tensors follow the parameter's
    # dtype and device, `step` stays as it is
    if isinstance(value, torch.Tensor):
        if key == 'step':
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v, key) for v in value)
    return value


def _check(ok, msg):
    if not ok:
        raise ValueError(msg)


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check(not lr < 0.0, f'Invalid learning rate: {lr}')
        _check(not momentum < 0.0, f'Invalid momentum value: {momentum}')
        _check(not weight_decay < 0.0, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'momentum': momentum, 'dampening': dampening, 'weight_decay': weight_decay,
                    'nesterov': nesterov, 'maximize': maximize, 'foreach': foreach,
                    'differentiable': differentiable, 'fused': fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, defaults)

    def _step_group(self, group):
        weight_decay, momentum, lr = group['weight_decay'], group['momentum'], group['lr']
        dampening, nesterov, maximize = group['dampening'], group['nesterov'], group['maximize']
        for param in group['params']:
            if param.grad is None:
                continue
            grad = param.grad if not maximize else -param.grad
            if weight_decay != 0:
                grad = grad.add(param, alpha=weight_decay)
            if momentum != 0:
                state = self.state[param]
                buf = state.get('momentum_buffer')
                if buf is None:
                    buf = grad.detach().clone()
                else:
                    buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                state['momentum_buffer'] = buf
                if nesterov:
                    grad = grad.add(buf, alpha=momentum)
                else:
                    grad = buf
            param.add_(grad, alpha=-lr)


def _step_tensor():
    return torch.tensor(0.0, dtype=torch.float32)


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= betas[0] < 1.0, f'Invalid beta parameter at index 0: {betas[0]}')
        _check(0.0 <= betas[1] < 1.0, f'Invalid beta parameter at index 1: {betas[1]}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        _check(isinstance(betas[0], float) and isinstance(betas[1], float),
               'betas must be either both floats or both Tensors')
        defaults = {'lr': lr, 'betas': (betas[0], betas[1]), 'eps': eps, 'weight_decay': weight_decay,
                    'amsgrad': amsgrad, 'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable, 'fused': fused,
                    'decoupled_weight_decay': decoupled_weight_decay}
        super().__init__(params, defaults)

    def _step_group(self, group):
        beta1, beta2 = group['betas']
        lr, eps, weight_decay = group['lr'], group['eps'], group['weight_decay']
        amsgrad, maximize, decoupled = group['amsgrad'], group['maximize'], group['decoupled_weight_decay']
        for param in group['params']:
            if param.grad is None:
                continue
            state = self.state[param]
            if len(state) == 0:
                state['step'] = _step_tensor()
                state['exp_avg'] = torch.zeros_like(param)
                state['exp_avg_sq'] = torch.zeros_like(param)
                if amsgrad:
                    state['max_exp_avg_sq'] = torch.zeros_like(param)
            # _single_tensor_adam
            grad = param.grad if not maximize else -param.grad
            exp_avg, exp_avg_sq, step_t = state['exp_avg'], state['exp_avg_sq'], state['step']
            step_t += 1
            if weight_decay != 0:
                if decoupled:
                    param.mul_(1 - lr * weight_decay)
                else:
                    grad = grad.add(param, alpha=weight_decay)
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            step = step_t.item()
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2 ** 0.5
            if amsgrad:
                max_exp_avg_sq = state['max_exp_avg_sq']
                max_exp_avg_sq.copy_(torch.maximum(max_exp_avg_sq, exp_avg_sq))
                denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= momentum, f'Invalid momentum value: {momentum}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        _check(0.0 <= alpha, f'Invalid alpha value: {alpha}')
        defaults = {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps, 'centered': centered,
                    'weight_decay': weight_decay, 'capturable': capturable, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group):
        lr, alpha, eps = group['lr'], group['alpha'], group['eps']
        weight_decay, momentum, centered, maximize = (group['weight_decay'], group['momentum'], group['centered'],
                                                      group['maximize'])
        for param in group['params']:
            if param.grad is None:
                continue
            state = self.state[param]
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=torch.float32)
                state['square_avg'] = torch.zeros_like(param)
                if momentum > 0:
                    state['momentum_buffer'] = torch.zeros_like(param)
                if centered:
                    state['grad_avg'] = torch.zeros_like(param)
            # _single_tensor_rmsprop
            grad = param.grad if not maximize else -param.grad
            square_avg = state['square_avg']
            state['step'] += 1
            if weight_decay != 0:
                grad = grad.add(param, alpha=weight_decay)
            square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
            if centered:
                grad_avg = state['grad_avg']
                grad_avg.lerp_(grad, 1 - alpha)
                avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
            else:
                avg = square_avg.sqrt()
            avg = avg.add_(eps)
            if momentum > 0:
                buf = state['momentum_buffer']
                buf.mul_(momentum).addcdiv_(grad, avg)
                param.add_(buf, alpha=-lr)
            else:
                param.addcdiv_(grad, avg, value=-lr)


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
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
        # Adagrad makes every parameter's state at construction
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.tensor(0.0, dtype=torch.float32)
                state['sum'] = torch.full_like(p, self.defaults['initial_accumulator_value'])

    def _step_group(self, group):
        lr, lr_decay, eps = group['lr'], group['lr_decay'], group['eps']
        weight_decay, maximize = group['weight_decay'], group['maximize']
        for param in group['params']:
            if param.grad is None:
                continue
            state = self.state[param]
            # _single_tensor_adagrad
            state_sum, step_t = state['sum'], state['step']
            step_t += 1
            step = step_t.item()
            grad = param.grad if not maximize else -param.grad
            if weight_decay != 0:
                grad = grad.add(param, alpha=weight_decay)
            clr = lr / (1 + (step - 1) * lr_decay)
            state_sum.addcmul_(grad, grad, value=1)
            std = state_sum.sqrt().add_(eps)
            param.addcdiv_(grad, std, value=-clr)


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check(0.0 <= lr, f'Invalid learning rate: {lr}')
        _check(0.0 <= rho <= 1.0, f'Invalid rho value: {rho}')
        _check(0.0 <= eps, f'Invalid epsilon value: {eps}')
        _check(0.0 <= weight_decay, f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize,
                    'capturable': capturable, 'foreach': foreach, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def _step_group(self, group):
        lr, rho, eps = group['lr'], group['rho'], group['eps']
        weight_decay, maximize = group['weight_decay'], group['maximize']
        for param in group['params']:
            if param.grad is None:
                continue
            state = self.state[param]
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=torch.float32)
                state['square_avg'] = torch.zeros_like(param)
                state['acc_delta'] = torch.zeros_like(param)
            # _single_tensor_adadelta
            square_avg, acc_delta = state['square_avg'], state['acc_delta']
            state['step'] += 1
            grad = param.grad if not maximize else -param.grad
            if weight_decay != 0:
                grad = grad.add(param, alpha=weight_decay)
            square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
            std = square_avg.add(eps).sqrt_()
            delta = acc_delta.add(eps).sqrt_()
            delta.div_(std).mul_(grad)
            acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
            param.add_(delta, alpha=-lr)


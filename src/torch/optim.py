# torch.optim for cudatutor: the update rules of torch/optim/sgd.py and adam.py (default, for-loop
# variants), applied under no_grad with tensor ops, so on CUDA each update launches kernels (and
# a pending device-side assert can surface there). Parameters without .grad are skipped.
import torch


# each optimizer's defaults in PyTorch 2.15's order, with the flags this engine does not act on
# (what param_groups and state_dict() show)
_DEFAULTS_2_15 = {
    'SGD': ['lr', 'momentum', 'dampening', 'weight_decay', 'nesterov', 'maximize', 'foreach', 'differentiable',
            'fused'],
    'Adam': ['lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize', 'foreach', 'capturable',
             'differentiable', 'fused', 'decoupled_weight_decay'],
    'AdamW': ['lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize', 'foreach', 'capturable',
              'differentiable', 'fused', 'decoupled_weight_decay'],
    'RMSprop': ['lr', 'momentum', 'alpha', 'eps', 'centered', 'weight_decay', 'capturable', 'foreach', 'maximize',
                'differentiable'],
    'Adagrad': ['lr', 'lr_decay', 'eps', 'weight_decay', 'initial_accumulator_value', 'foreach', 'maximize',
                'differentiable', 'fused'],
    'Adadelta': ['lr', 'rho', 'eps', 'weight_decay', 'maximize', 'capturable', 'foreach', 'differentiable'],
}
_FLAG_DEFAULTS = {'maximize': False, 'foreach': None, 'differentiable': False, 'fused': None, 'capturable': False}


def _complete_defaults(name, defaults):
    order = _DEFAULTS_2_15.get(name)
    if order is None:
        return defaults
    out = {}
    for k in order:
        if k in defaults:
            out[k] = defaults[k]
        elif k == 'decoupled_weight_decay':
            out[k] = name == 'AdamW'
        elif k in _FLAG_DEFAULTS:
            out[k] = _FLAG_DEFAULTS[k]
    for k, v in defaults.items():
        if k not in out:
            out[k] = v
    return out


class Optimizer:
    def __init__(self, params, defaults):
        defaults = _complete_defaults(type(self).__name__, defaults)
        if isinstance(params, torch.Tensor):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, but got ' + type(params).__name__)
        params = list(params)
        if len(params) == 0:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(params[0], dict):
            params = [{'params': params}]
        self.param_groups = []
        for g in params:
            ps = g['params']
            ps = [ps] if isinstance(ps, torch.Tensor) else list(ps)
            group = {'params': ps}
            for k, v in defaults.items():
                group[k] = g.get(k, v)
            for k, v in g.items():
                if k not in group:
                    group[k] = v
            self.param_groups.append(group)
        self.defaults = defaults
        self.state = {}
        self._slots = [[None for _ in g['params']] for g in self.param_groups]

    def add_param_group(self, param_group):
        ps = param_group['params']
        ps = [ps] if isinstance(ps, torch.Tensor) else list(ps)
        group = {'params': ps}
        for k, v in self.defaults.items():
            group[k] = param_group.get(k, v)
        self.param_groups.append(group)
        self._slots.append([None for _ in ps])

    def state_dict(self):
        groups = []
        index = 0
        for g in self.param_groups:
            d = {k: v for k, v in g.items() if k != 'params'}
            d['params'] = list(range(index, index + len(g['params'])))
            index += len(g['params'])
            groups.append(d)
        state = {}
        index = 0
        for gi, g in enumerate(self.param_groups):
            for pi, p in enumerate(g['params']):
                s = self._state_of(self._slots[gi][pi])
                if s is not None:
                    state[index] = s
                index += 1
        return {'state': state, 'param_groups': groups}

    def _state_of(self, slot):
        return None

    def load_state_dict(self, state_dict):
        groups = state_dict['param_groups']
        if len(groups) != len(self.param_groups):
            raise ValueError('loaded state dict has a different number of parameter groups')
        for g, sg in zip(self.param_groups, groups):
            if len(g['params']) != len(sg['params']):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
            for k, v in sg.items():
                if k != 'params':
                    g[k] = v

    def __repr__(self):
        s = type(self).__name__ + ' ('
        for i, g in enumerate(self.param_groups):
            s += '\nParameter Group ' + str(i)
            for k in sorted(g.keys()):
                if k != 'params':
                    s += f'\n    {k}: {g[k]}'
        return s + '\n)'

    def zero_grad(self, set_to_none=True):
        for g in self.param_groups:
            for p in g['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def step(self, closure=None):
        self._opt_called = True
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for gi, g in enumerate(self.param_groups):
                for pi, p in enumerate(g['params']):
                    if p.grad is not None:
                        self._slots[gi][pi] = self._update(p, p.grad, g, self._slots[gi][pi])
        return loss


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False):
        super().__init__(params, {'lr': lr, 'momentum': momentum, 'dampening': dampening,
                                  'weight_decay': weight_decay, 'nesterov': nesterov})

    def _update(self, p, d, g, buf):
        # torch/optim/sgd.py's _single_tensor_sgd, op for op: add with alpha is one fused
        # multiply-add per element, so float32 parameters get PyTorch's bits
        if g['weight_decay'] != 0:
            d = d.add(p, alpha=g['weight_decay'])
        if g['momentum'] != 0:
            if buf is None:
                buf = d.detach().clone()
            else:
                buf.mul_(g['momentum']).add_(d, alpha=1 - g['dampening'])
            if g['nesterov']:
                d = d.add(buf, alpha=g['momentum'])
            else:
                d = buf
        p.add_(d, alpha=-g['lr'])
        return buf


class Adam(Optimizer):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False):
        super().__init__(params, {'lr': lr, 'betas': betas, 'eps': eps,
                                  'weight_decay': weight_decay, 'amsgrad': amsgrad})

    _decoupled = False

    def _update(self, p, d, g, st):
        b1, b2 = g['betas']
        if st is None:
            st = [0, torch.zeros_like(p), torch.zeros_like(p)]
        wd = g['weight_decay']
        if wd != 0:
            if self._decoupled:
                p.mul_(1 - g['lr'] * wd)
            else:
                d = d + wd * p
        st[0] += 1
        t = st[0]
        m, v = st[1], st[2]
        m.mul_(b1)
        m.add_(d * (1 - b1))
        v.mul_(b2)
        v.add_(d * d * (1 - b2))
        bc1 = 1 - b1 ** t
        bc2 = 1 - b2 ** t
        denom = (v.sqrt() / (bc2 ** 0.5)) + g['eps']
        p.sub_((g['lr'] / bc1) * (m / denom))
        return st


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad)


class Adadelta(Optimizer):
    # torch/optim/adadelta.py, _single_tensor_adadelta
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        super().__init__(params, {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay,
                                  'foreach': foreach, 'capturable': capturable, 'maximize': maximize,
                                  'differentiable': differentiable})

    def _update(self, p, d, g, st):
        rho, eps, lr = g['rho'], g['eps'], g['lr']
        if st is None:
            st = [0, torch.zeros_like(p), torch.zeros_like(p)]
        if g['maximize']:
            d = -d
        if g['weight_decay'] != 0:
            d = d.add(p, alpha=g['weight_decay'])
        st[0] += 1
        square_avg, acc_delta = st[1], st[2]
        square_avg.mul_(rho)
        square_avg.copy_(torch.addcmul(square_avg, d, d, value=1 - rho))
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(d)
        acc_delta.mul_(rho)
        acc_delta.copy_(torch.addcmul(acc_delta, delta, delta, value=1 - rho))
        p.add_(delta, alpha=-lr)
        return st


class RMSprop(Optimizer):
    # torch/optim/rmsprop.py, _single_tensor_rmsprop
    def __init__(self, params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        super().__init__(params, {'lr': lr, 'alpha': alpha, 'eps': eps, 'weight_decay': weight_decay,
                                  'momentum': momentum, 'centered': centered, 'capturable': capturable,
                                  'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable})

    def _update(self, p, d, g, st):
        alpha, eps, lr, mom = g['alpha'], g['eps'], g['lr'], g['momentum']
        if st is None:
            st = [0, torch.zeros_like(p), torch.zeros_like(p), torch.zeros_like(p)]
        if g['maximize']:
            d = -d
        if g['weight_decay'] != 0:
            d = d.add(p, alpha=g['weight_decay'])
        st[0] += 1
        square_avg = st[1]
        square_avg.mul_(alpha)
        square_avg.copy_(torch.addcmul(square_avg, d, d, value=1 - alpha))
        if g['centered']:
            grad_avg = st[3]
            # lerp(grad_avg, d, 1 - alpha) with a weight below 0.5: self + weight * (end - self)
            grad_avg.copy_(grad_avg + (1 - alpha) * (d - grad_avg))
            avg = torch.addcmul(square_avg, grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if mom > 0:
            buf = st[2]
            buf.mul_(mom)
            buf.copy_(torch.addcdiv(buf, d, avg))
            p.add_(buf, alpha=-lr)
        else:
            p.copy_(torch.addcdiv(p, d, avg, value=-lr))
        return st

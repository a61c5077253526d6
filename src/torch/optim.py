# torch.optim for cudatutor: the update rules of torch/optim/sgd.py and adam.py (default, for-loop
# variants), applied under no_grad with tensor ops, so on CUDA each update launches kernels (and
# a pending device-side assert can surface there). Parameters without .grad are skipped.
import torch


class Optimizer:
    def __init__(self, params, defaults):
        self.param_groups = [{'params': list(params), **defaults}]
        self.defaults = defaults
        self.state = {}
        self._slots = [[None for _ in g['params']] for g in self.param_groups]

    def zero_grad(self, set_to_none=True):
        for g in self.param_groups:
            for p in g['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def step(self, closure=None):
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
        if g['weight_decay'] != 0:
            d = d + g['weight_decay'] * p
        if g['momentum'] != 0:
            if buf is None:
                buf = d.clone()
            else:
                buf.mul_(g['momentum'])
                buf.add_(d * (1 - g['dampening']))
            if g['nesterov']:
                d = d + g['momentum'] * buf
            else:
                d = buf
        p.sub_(g['lr'] * d)
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

# torch.optim for cudatutor: there is no autograd, so step() changes no values; on CUDA it still
# launches one update kernel per parameter (so a pending device-side assert can surface there).
import torch


class Optimizer:
    def __init__(self, params, defaults):
        self.param_groups = [{'params': list(params), **defaults}]
        self.defaults = defaults
        self.state = {}

    def zero_grad(self, set_to_none=True):
        pass

    def step(self, closure=None):
        for g in self.param_groups:
            for p in g['params']:
                p.detach().mul_(1)
        return None


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False):
        super().__init__(params, {'lr': lr, 'momentum': momentum, 'weight_decay': weight_decay})


class Adam(Optimizer):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False):
        super().__init__(params, {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay})


class AdamW(Adam):
    pass

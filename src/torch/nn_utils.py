# torch.nn.utils for cudatutor: torch/nn/utils/clip_grad.py (the CPU path, foreach=None: one
# linalg.vector_norm per gradient, the norm of their stack, one clip coefficient clamped to 1)
# and convert_parameters.py of PyTorch 2.15; torch.nn.utils.rnn is nn_utils_rnn.py.
import torch


def _typename(o):
    if isinstance(o, torch.Tensor):
        return o.type()
    m = getattr(type(o), '__module__', None)
    prefix = m + '.' if m is not None and m != 'builtins' else ''
    return prefix + type(o).__name__


def _foreach_check(tensors, foreach):
    # CPU and CUDA tensors both have foreach kernels (torch.utils._foreach_utils), whose
    # per-tensor norms and products give the same numbers as the loop here
    return None


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    if isinstance(tensors, torch.Tensor):
        tensors = [tensors]
    else:
        tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        _foreach_check(tensors, foreach)
        first_device = tensors[0].device
        norms = [torch.linalg.vector_norm(g, norm_type) for g in tensors]
        total_norm = torch.linalg.vector_norm(torch.stack([norm.to(first_device) for norm in norms]), norm_type)
        if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
            raise RuntimeError(
                f'The total norm of order {norm_type} for gradients from '
                '`parameters` is non-finite, so it cannot be clipped. To disable '
                'this error and scale the gradients by the non-finite norm anyway, '
                'set `error_if_nonfinite=False`')
    return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    with torch.no_grad():
        _foreach_check(grads, foreach)
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped.to(g.device))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    else:
        is_generator = type(parameters).__name__ == 'generator'
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            torch._C.warn('`parameters` is an empty generator, no gradient clipping will occur.')
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    torch._C.warn('`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.',
                  category='FutureWarning')
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    with torch.no_grad():
        _foreach_check(grads, foreach)
        for grad in grads:
            grad.clamp_(min=-clip_value, max=clip_value)


def _check_param_device(param, old_param_device):
    if old_param_device is None:
        old_param_device = param.get_device() if param.device.type == 'cuda' else -1
    else:
        if param.device.type == 'cuda':
            warn = param.get_device() != old_param_device
        else:
            warn = old_param_device != -1
        if warn:
            raise TypeError('Found two parameters on different devices, this is currently not supported.')
    return old_param_device


def parameters_to_vector(parameters):
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f'expected torch.Tensor, but got: {_typename(vec)}')
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param

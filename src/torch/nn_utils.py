# torch.nn.utils for cudatutor: gradient clipping (torch/nn/utils/clip_grad.py, the foreach=False
# path: per-parameter norms, their norm, one clip coefficient clamped to 1) and vector helpers.
import torch


def _params(parameters):
    if isinstance(parameters, torch.Tensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    grads = [p.grad for p in _params(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    if norm_type == float('inf'):
        norms = [g.detach().abs().max() for g in grads]
        total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).max()
    else:
        total_norm = torch.stack([g.detach().norm(norm_type) for g in grads]).norm(norm_type)
    if error_if_nonfinite and (total_norm.isnan().item() or not total_norm.isfinite().item()):
        raise RuntimeError(f'The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`')
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(clip_coef_clamped)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in _params(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    return torch.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    i = 0
    with torch.no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[i:i + n].reshape(p.shape))
            i += n

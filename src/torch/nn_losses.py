
# ---- torch.nn, continued (src/torch/nn_losses.py): the losses nn.py lacked, with their
# functional forms, each computed as ATen's composite (Loss.cpp) computes it.


def _loss_reduction(size_average, reduce, reduction):
    legacy = _legacy_reduction(size_average, reduce)
    return reduction if legacy is None else legacy


def _f_margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f'margin_ranking_loss : All input tensors should have same dimension but got sizes: '
            f'input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ')
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def _f_hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    zeros = torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min(0)
    output_margin = torch.where(target != 1, margin_clamp, zeros)
    output_self = torch.where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def _f_soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    return _reduce(torch.log1p(torch.exp(-input * target)), reduction)


def _f_cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    targ_dim = target.dim()
    if targ_dim != 1 and targ_dim != 0:
        raise RuntimeError(f'0D or 1D target tensor expected, multi-target not supported')
    if targ_dim == 1:
        if input1.dim() != 2 or input2.dim() != 2:
            raise RuntimeError(f'1D target tensor expects 2D input tensors, but found inputs with sizes '
                               f'{list(input1.shape)} and {list(input2.shape)}.')
    else:
        if input1.dim() != 1 or input2.dim() != 1:
            raise RuntimeError(f'0D target tensor expects 1D input tensors, but found inputs with sizes '
                               f'{list(input1.shape)} and {list(input2.shape)}.')
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = (input1 * input1).sum(targ_dim) + 1e-12
    mag_square2 = (input2 * input2).sum(targ_dim) + 1e-12
    denom = (mag_square1 * mag_square2).sqrt()
    cos = prod_sum / denom
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0)
    output_pos = torch.where(target == 1, pos, zeros)
    output_neg = torch.where(target == -1, neg, zeros)
    return _reduce(output_pos + output_neg, reduction)


def _f_poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                        reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(reduction + ' is not a valid value for reduction')
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def _f_gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    if isinstance(var, float):
        if var < 0:
            raise ValueError('var has negative entry/entries')
        var = var * torch.ones_like(input)
    elif torch.any(var < 0):
        raise ValueError('var has negative entry/entries')
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError('var is of incorrect size')
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + ' is not valid')
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    if reduction == 'mean':
        return loss.mean()
    elif reduction == 'sum':
        return loss.sum()
    return loss


def _f_multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * functional.logsigmoid(input) + (1 - target) * functional.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + ' is not valid')


def _f_triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                           reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if margin <= 0:
        raise ValueError(f'margin must be greater than 0, got {margin}')
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f'The anchor, positive, and negative tensors are expected to have the same number of '
                           f'dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs')
    dist_pos = functional.pairwise_distance(anchor, positive, p, eps)
    dist_neg = functional.pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_swap = functional.pairwise_distance(positive, negative, p, eps)
        dist_neg = torch.minimum(dist_neg, dist_swap)
    return _reduce(torch.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def _f_triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                         swap=False, reduction='mean'):
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if margin <= 0:
        raise ValueError(f'margin must be greater than 0, got {margin}')
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f'The anchor, positive, and negative tensors are expected to have the same number of '
                           f'dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs')
    if distance_function is None:
        distance_function = functional.pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_swap = distance_function(positive, negative)
        dist_neg = torch.minimum(dist_neg, dist_swap)
    loss = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == 'sum':
        return torch.sum(loss)
    elif reduction == 'mean':
        return torch.mean(loss)
    return loss


def _f_multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                         reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if p != 1 and p != 2:
        raise ValueError('only p == 1 and p == 2 supported')
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError('weight must be one-dimensional')
    ndims = input.dim()
    if not ((ndims == 2 and input.shape[1] != 0) or (ndims == 1 and input.shape[0] != 0) or ndims == 0):
        raise RuntimeError(f'Expected non-empty vector or matrix with optional 0-dim batch size, but got: '
                           f'{list(input.shape)}')
    nframe = input.shape[0] if ndims == 2 else 1
    dim = input.shape[1] if ndims == 2 else (input.shape[0] if ndims == 1 else 1)
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError(f'multi_margin_loss: target tensor should be 1-D with size equal to the number of input '
                           f'samples (batch size). Expected target size [{nframe}], but got {list(target.shape)}. '
                           f'Input has shape {list(input.shape)}.')
    if weight is not None and not (weight.dim() <= 1 and weight.numel() == dim):
        raise RuntimeError(f'inconsistent weight size, expected {dim} but got {list(weight.shape)}')
    if target.dtype != torch.int64:
        raise RuntimeError(f'expected scalar type Long but found {_SCALAR_NAMES.get(target.dtype, str(target.dtype))}')
    x = input.reshape(nframe, dim)
    t = target.reshape(-1)
    # ATen's CPU kernel: per sample, z = margin - x[target] + x[d] over d != target in order,
    # summed sequentially in the input's dtype and divided by dim; mean and sum then add the
    # samples in double (acc_type)
    x_target = x.gather(1, t.reshape(-1, 1))
    z = margin - x_target + x
    zero = torch.zeros_like(z)
    h = torch.where(z > 0, z, zero) if p == 1 else torch.where(z > 0, z * z, zero)
    if weight is not None:
        h = h * weight[t].reshape(-1, 1)
    not_target = torch.arange(dim).reshape(1, -1) != t.reshape(-1, 1)
    h = torch.where(not_target, h, zero)
    total = h[:, 0]
    for d in range(1, dim):
        total = total + h[:, d]
    loss = total / dim
    if reduction == 'none':
        return loss if ndims == 2 else loss.reshape(())
    acc = loss.double().sum()
    if reduction == 'mean':
        acc = acc / nframe
    return acc.to(input.dtype)


def _f_multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    reduction = _loss_reduction(size_average, reduce, reduction)
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    ndims = input.dim()
    if not ((ndims == 2 and input.shape[1] != 0) or (ndims == 1 and input.shape[0] != 0) or ndims == 0):
        raise RuntimeError(f'Expected non-empty vector or matrix with optional 0-dim batch size, but got: '
                           f'{list(input.shape)}')
    if ndims <= 1:
        nframe, dim = 1, (1 if ndims == 0 else input.shape[0])
        fits = target.dim() <= 1 and target.numel() == dim
    else:
        nframe, dim = input.shape[0], input.shape[1]
        fits = target.dim() == 2 and target.shape[0] == nframe and target.shape[1] == dim
    if not fits:
        raise RuntimeError(f'inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}')
    if not input.is_floating_point():
        raise NotImplementedError(f'"multilabel_margin_loss_forward_out_frame" not implemented for '
                                  f"'{_SCALAR_NAMES.get(input.dtype, str(input.dtype))}'")
    if target.dtype != torch.int64:
        raise RuntimeError(f'expected scalar type Long but found {_SCALAR_NAMES.get(target.dtype, str(target.dtype))}')
    if target.numel() and (target.min().item() < -1 or target.max().item() >= dim):
        raise RuntimeError("argument #2 'target' is out of range")
    # no reduction on a 1-D target still gives a 0-d loss
    scalar_out = reduction != 'none' or target.dim() <= 1
    return _C._composite('MultilabelMarginLossBackward0', _multilabel_margin_loss, input, target, reduction,
                         nframe, dim, scalar_out)


def _multilabel_margin_loss(input, target, reduction, nframe, dim, scalar_out):
    # ATen's CPU kernel (LossMultiLabelMargin.cpp): the targets of a row run up to its first -1;
    # for each target j and each non-target d, z = (1 - x[j]) + x[d] in the input's dtype and the
    # positive z are summed in double; a row's sum rounds to the dtype. The reduced loss adds
    # the rows in double, divides by dim (and nframe for the mean) and rounds once; 'none'
    # divides each rounded row by dim in the dtype.
    dt = input.dtype
    x = input.detach().reshape(nframe, dim)
    rows = target.reshape(nframe, dim).tolist()
    hits = []
    total = 0.0
    per_row = []
    for t in range(nframe):
        targets = []
        for j in rows[t]:
            if j < 0:
                break
            targets.append(j)
        is_target = set(targets)
        count = [0] * dim
        row_sum = 0.0
        xr = x[t]
        for j in targets:
            z = ((1 - xr[j]) + xr).tolist()
            for d in range(dim):
                if d not in is_target and z[d] > 0:
                    row_sum += z[d]
                    count[j] -= 1
                    count[d] += 1
        row_val = torch.tensor(row_sum, dtype=dt)
        per_row.append(row_val)
        total += row_val.item()
        hits.append(count)
    if scalar_out:
        total /= dim
        if reduction == 'mean':
            total /= nframe
        value = torch.tensor(total, dtype=dt)
    else:
        value = torch.stack(per_row) / dim
    # the gradient: each hit adds (or subtracts) g = 1 / dim (1 / (nframe * dim) for the mean)
    # to the element in the dtype, one addition at a time, then scales by the incoming gradient
    g = torch.tensor(1.0 / (nframe * dim) if reduction == 'mean' else 1.0 / dim, dtype=dt).item()
    counts = torch.tensor(hits, dtype=torch.int64)
    mag = counts.abs()
    steps = mag.max().item() if mag.numel() else 0
    acc = torch.zeros(nframe, dim, dtype=dt)
    for s in range(1, steps + 1):
        acc = torch.where(mag >= s, acc + g, acc)
    grad = torch.where(counts < 0, -acc, acc)
    xf = input.reshape(nframe, dim)
    if scalar_out:
        a = (xf * grad).sum()
    else:
        a = (xf * grad).sum(1)
    # value plus an exact zero whose gradient is grad times the incoming one
    return value + (a - a.detach())


def _f_linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction='mean',
                            ignore_index=None, label_smoothing=0.0, options=None):
    # F.linear_cross_entropy's reference path: linear, then cross_entropy on the logits (the
    # chunked path that `options` selects computes the same loss in chunks)
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f'expected input with dimensionality 1 or 2, got {input.dim()}')
    if linear_weight.dim() < 2:
        raise RuntimeError(f'expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}')
    num_batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError('expected equal input and linear_weight last dimensions (in_features), '
                           f'got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively')
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes,) + out_features:
        raise RuntimeError(f'expected linear_bias shape {(num_classes,) + out_features}, got {tuple(linear_bias.shape)}')
    if len(out_features) > 0 and len(num_batches) == 0:
        raise RuntimeError(f'K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires'
                           f' batched input, (N, {in_features}), got unbatched'
                           f' input with shape {tuple(input.shape)}')
    logits_shape = num_batches + (num_classes,) + out_features
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError('ignore_index cannot be specified when target contains probabilities')
    ignore_index = ignore_index if ignore_index is not None else -100
    if out_features:
        rows = num_classes
        for f in out_features:
            rows *= f
        linear_weight = linear_weight.reshape(rows, in_features)
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(rows)
    logits = functional.linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return functional.cross_entropy(logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index,
                                    label_smoothing=label_smoothing)


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['margin_ranking_loss', 'hinge_embedding_loss', 'soft_margin_loss',
                                   'cosine_embedding_loss', 'poisson_nll_loss', 'gaussian_nll_loss',
                                   'multilabel_soft_margin_loss', 'triplet_margin_loss',
                                   'triplet_margin_with_distance_loss', 'multi_margin_loss',
                                   'multilabel_margin_loss', 'linear_cross_entropy']


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = _loss_reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class MarginRankingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return functional.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return functional.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    def forward(self, input, target):
        return functional.soft_margin_loss(input, target, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return functional.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return functional.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                           eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return functional.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                            reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def forward(self, input, target):
        return functional.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class LinearCrossEntropyLoss(_WeightedLoss):
    def __init__(self, in_features, num_classes, *, out_features=(), bias=False, device=None, dtype=None,
                 reduction='mean', weight=None, ignore_index=None, label_smoothing=0.0, options=None):
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(f'expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}')
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f'expected label_smoothing to be in range [0, 1], got {label_smoothing}')
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        # the weight is stored two-dimensional (Linear's) and reshaped in forward
        rows = num_classes
        for f in out_features:
            rows *= f
        self.linear = Linear(in_features, rows, bias=bias, device=device, dtype=dtype)
        self.options = options

    def forward(self, input, target):
        linear_weight = self.linear.weight.reshape((self.num_classes,) + tuple(self.out_features)
                                                   + (self.linear.in_features,))
        linear_bias = (self.linear.bias.reshape((self.num_classes,) + tuple(self.out_features))
                       if self.linear.bias is not None else None)
        return functional.linear_cross_entropy(input, linear_weight, target, linear_bias=linear_bias,
                                               weight=self.weight, reduction=self.reduction,
                                               ignore_index=self.ignore_index,
                                               label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self):
        return (f'in_features={self.linear.in_features},'
                f' num_classes={self.num_classes},'
                f' out_features={self.out_features},'
                f' bias={self.linear.bias is not None},'
                f' reduction={self.reduction},'
                f' ignore_index={self.ignore_index},'
                f' label_smoothing={self.label_smoothing},'
                f' options={self.options}')


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, target):
        return functional.multilabel_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError('only p == 1 and p == 2 supported')
        if weight is not None and weight.dim() != 1:
            raise ValueError(f'MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead')
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return functional.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                            reduction=self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f'TripletMarginLoss: expected margin to be greater than 0, got {margin} instead')
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return functional.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                              eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction='mean'):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(f'TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead')
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return functional.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                            distance_function=self.distance_function,
                                                            margin=self.margin, swap=self.swap,
                                                            reduction=self.reduction)

# ---- extra_parsed.py: PyTorch's argument parser in front of the functions it binds in C++ ----
# PyTorch parses each call of these against its signature table (PythonArgParser) before the op
# runs, so a wrong argument is its TypeError ("logit(): argument 'eps' must be float, not str",
# "received an invalid combination of arguments ...") whatever the op. Ours are Python, set on
# torch above; torch._C._parsed puts the same parser the native bindings use in front of each.
# Not listed: what PyTorch itself writes in Python (torch/functional.py's einsum, meshgrid,
# atleast_1d/2d/3d, broadcast_tensors, cdist, ...), whose errors are its Python's.
_PARSED_BY_PYTORCH = (
    'abs_', 'addmm', 'amax', 'amin', 'aminmax', 'argwhere', 'as_strided', 'bernoulli', 'bincount',
    'bitwise_not', 'bucketize', 'can_cast', 'cat', 'ceil_', 'clone', 'column_stack', 'corrcoef',
    'cos_', 'cov', 'cross', 'cummax', 'cummin', 'det', 'diag', 'diff', 'dot', 'dstack', 'exp_',
    'flip', 'fliplr', 'flipud', 'floor_', 'gather', 'ger', 'histc', 'hstack', 'index_add',
    'index_select', 'inner', 'inverse', 'is_complex', 'is_floating_point', 'is_nonzero', 'isclose',
    'isin', 'isinf', 'isneginf', 'isposinf', 'kthvalue', 'log_', 'logit', 'logspace', 'logsumexp',
    'masked_select', 'matrix_power', 'mode', 'moveaxis', 'movedim', 'msort', 'multinomial',
    'nan_to_num', 'narrow', 'neg_', 'normal', 'outer', 'poisson', 'promote_types', 'quantile',
    'ravel', 'relu_', 'repeat_interleave', 'result_type', 'roll', 'rot90', 'round', 'round_',
    'row_stack', 'scatter', 'scatter_add', 'searchsorted', 'sigmoid_', 'sin_', 'sqrt_', 'square',
    'std_mean', 'swapaxes', 'swapdims', 'tanh_', 'tensor_split', 'tile', 'trace', 'tril', 'triu',
    'unbind', 'unflatten', 'var_mean', 'vstack', 'xlogy', 'zero_',
)

for _name in _PARSED_BY_PYTORCH:
    setattr(torch, _name, torch._C._parsed(torch, _name))

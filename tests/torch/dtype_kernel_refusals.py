# A kernel that has no version for a dtype: PyTorch 2.15's dispatch macros raise
# NotImplementedError ('"softmax_lastdim_kernel_impl" not implemented for 'Long''), whichever
# op words it; other dtype refusals stay RuntimeError.
import torch
import torch.nn.functional as F

cases = {
    'silu long': lambda: F.silu(torch.tensor([1, 2])),
    'bool matmul': lambda: torch.ones(2, 2, dtype=torch.bool) @ torch.ones(2, 2, dtype=torch.bool),
    'softmax long': lambda: F.softmax(torch.tensor([1, 2]), 0),
    'log_softmax long': lambda: F.log_softmax(torch.tensor([1, 2]), 0),
    'normal_ long': lambda: torch.tensor([1, 2]).normal_(),
    'bitwise_not float': lambda: torch.tensor([1.5]).bitwise_not(),
    'addcmul bool': lambda: torch.tensor([True]).addcmul(torch.tensor([True]), torch.tensor([True])),
    'logcumsumexp long': lambda: torch.tensor([1, 2]).logcumsumexp(0),
    'bce long': lambda: F.binary_cross_entropy(torch.tensor([1, 0]), torch.tensor([1, 0])),
    'lerp long': lambda: torch.tensor([1, 2]).lerp(torch.tensor([3, 4]), 0.5),
    'elu long': lambda: F.elu(torch.tensor([1, 2])),
    'bce dtype': lambda: F.binary_cross_entropy(torch.rand(2), torch.tensor([1, 0])),
    'mm mixed': lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64),
}
for name, f in cases.items():
    try:
        f()
        print(name, 'ok')
    except Exception as e:
        print(name, type(e).__name__, e)

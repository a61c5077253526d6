# Dtype refusals PyTorch 2.15 raises as NotImplementedError (std/var, norms and linalg on
# integers, bool subtraction and relu) or RuntimeError (kl_div of integral inputs).
import torch
import torch.nn.functional as F
L = torch.tensor([[1, 2], [3, 4]])
for name, f in [('inv', lambda: torch.linalg.inv(L)), ('det', lambda: torch.det(L)), ('std', lambda: L.std()), ('var', lambda: L.var(0)),
                ('norm', lambda: L.norm()), ('vector_norm', lambda: torch.linalg.vector_norm(L)), ('relu bool', lambda: F.relu(L.bool())),
                ('kl_div', lambda: F.kl_div(L, L, reduction='batchmean')), ('solve', lambda: torch.linalg.solve(L, L)), ('matrix_power', lambda: torch.linalg.matrix_power(L.float(), -1))]:
    try:
        f(); print(name, 'ok')
    except Exception as e:
        print(name, type(e).__name__, e)

b = torch.tensor([True, False])
for name, f in [('bool sub', lambda: b - b), ('bool rsub', lambda: 1 - b), ('bool neg', lambda: -b), ('kl_div int target', lambda: F.kl_div(torch.rand(2), torch.tensor([1, 0]))),
                ('kl_div int input', lambda: F.kl_div(torch.tensor([1, 0]), torch.rand(2))), ('kl_div bool', lambda: F.kl_div(torch.rand(2), b)), ('relu bool', lambda: torch.relu(b)), ('relu_ bool', lambda: b.clone().relu_())]:
    try:
        f(); print(name, 'ok')
    except Exception as e:
        print(name, type(e).__name__, e)

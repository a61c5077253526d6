# np.array(tensor) asks Tensor.__array__ for a copy, which it cannot take: numpy 2.4 warns
# and retries; np.asarray(tensor) asks nothing and says nothing; copy=False refuses.
import warnings

import numpy as np
import torch

t = torch.arange(3.0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    a = np.asarray(t)
    print("asarray", a, len(caught))
    b = np.array(t)
    print("array", b, len(caught), caught[-1].category.__name__)
    print(str(caught[-1].message)[:60])
    c = np.array(t, copy=None)
    print("copy=None", c, len(caught))
    d = np.array(t, dtype=np.float64)
    print("dtype", d.dtype, len(caught))
    try:
        np.array(t, copy=False)
    except ValueError as e:
        print("copy=False", type(e).__name__, str(e).splitlines()[0], len(caught))
a[0] = 7.0
print(t)
b[1] = 9.0
print(t)

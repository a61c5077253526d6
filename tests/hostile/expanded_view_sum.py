# expect: TimeoutError: the script ran longer than 10 seconds (line 5)
# One sum over an expanded view of 3 x 2**40 elements: the kernel itself must stop at the
# limit (it ran for 75 minutes before the run handed its deadline to the engine).
import torch
total = torch.ones(3).expand(2**40, 3).sum(0)

# expect: ValueError: [-9223372036854775808, 0, -9223372036854775808, 0, -9223372036854775808, 0]
# PyTorch 2.15 wraps: INT64_MIN // -1 is INT64_MIN and INT64_MIN % -1 is 0 (this panicked),
# with a scalar, a tensor and on the GPU alike.
import torch
x = torch.tensor([-2**63])
a = (x // -1).tolist() + (x % -1).tolist()
a += (x // torch.tensor([-1])).tolist() + (x % torch.tensor([-1])).tolist()
a += (x.cuda() // -1).tolist() + (x.cuda() % -1).tolist()
raise ValueError(str(a))

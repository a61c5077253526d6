# expect: RuntimeError: Storage size calculation overflowed with sizes=[2, 9223372036854775807]
import torch
import torch.nn.functional as F
F.one_hot(torch.tensor([1, 1]), 2**63 - 1)

# expect: RuntimeError: Storage size calculation overflowed with sizes=[4, 4611686018427387904]
import torch
import torch.nn.functional as F
F.one_hot(torch.tensor([0, 0, 0, 0]), 2**62)

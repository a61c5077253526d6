# expect: RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 8796093022216 bytes. Error code 12 (Cannot allocate memory)
import torch
import torch.nn.functional as F
F.one_hot(torch.tensor([2**40]))

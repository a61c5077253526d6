# expect: RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 40000000 bytes. Error code 12 (Cannot allocate memory)
# env: ARGS=--time-limit 120
import torch
keep = []
while True:
    keep.append(torch.ones(10**7))

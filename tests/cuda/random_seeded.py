# Seeded CUDA random numbers as a learner prints them (recorded by scripts/gpu-check.sh;
# the bit-exact record is tests/fixtures/random/cuda.json from record-random.py --device cuda).
import torch
torch.manual_seed(0)
print(torch.cuda.initial_seed())
print(torch.rand(5, device='cuda'))
print(torch.randn(5, device='cuda'))
print(torch.randint(0, 10, (8,), device='cuda'))
print(torch.rand(3, dtype=torch.float64, device='cuda'))
print(torch.randn(2, 3, dtype=torch.float16, device='cuda'))
state = torch.cuda.get_rng_state()
print(int.from_bytes(bytes(state[:8].tolist()), 'little'), int.from_bytes(bytes(state[8:].tolist()), 'little'))
g = torch.Generator(device='cuda')
print(g.initial_seed(), torch.rand(3, device='cuda', generator=g))
torch.manual_seed(0)
print(torch.rand(5, device='cuda'))

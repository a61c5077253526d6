# Seeded CUDA draws across grid-stride passes: on an H200 a float kernel covers 1056 blocks x
# 256 threads x 4 = 1 081 344 elements per pass, so these indices cross the first boundary.
import torch
torch.manual_seed(0)
x = torch.rand(2_500_001, device='cuda')
print(x[:4])
print(x[270334:270338])
print(x[1081342:1081346])
print(x[-4:])
y = torch.randn(2_500_001, device='cuda')
print(y[1081342:1081346])
state = torch.cuda.get_rng_state()
print(int.from_bytes(bytes(state[8:].tolist()), 'little'))

import torch

# lengths on both sides of the vector width (16 lanes for float32 on AVX512, 8 on AVX2) so both
# the vectorised loop and its scalar tail compute some elements; weights below and above 0.5
def vals(n, k, s, off):
    return torch.tensor([((i * k) % 1009) / s - off for i in range(n)])

for n in [1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100]:
    a = vals(n, 7919, 337.0, 1.3)
    b = vals(n, 104729, 211.0, 2.1)
    for w in [0.3, 0.7, 0.5, -0.25, 1.5, 0.1]:
        print(n, w, torch.lerp(a, b, w).tolist())
    print(n, a.lerp(b, 0.9).tolist())
    c = a.clone()
    c.lerp_(b, 0.05)
    print(n, c.tolist())

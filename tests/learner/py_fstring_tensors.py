import torch

t = torch.tensor([1.5, 2.25])
loss = torch.tensor(0.123456)
print(f"{t}")
print(f"{t!r}")
print(f"loss={loss:.4f}")
print(f"loss={loss.item():.2e}")
print(f"{t.shape} {t.dtype} {t.device}")
print(f"{t[0]:>8.3f}|")
print(f"{t.tolist()}")
print(f"{t:.2f}")

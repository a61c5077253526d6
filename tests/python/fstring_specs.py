x = 3.14159265
n = 1234567
print(f"{x:.4f}")
print(f"{x!r}")
print(f"{n:>10}|")
print(f"{n:,}")
print(f"{0.256:.2%}")
print(f"{x:e}")
print(f"{x:08.3f}")
print(f"{n:_}")
print(f"{'left':<8}|{'mid':^7}|{'right':>8}")
print(f"{42:x} {42:o} {42:b} {255:#x} {42:X}")

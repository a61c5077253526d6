rows = [("epoch", "loss", "acc"), (1, 0.6931, 0.5), (2, 0.4122, 0.81), (10, 0.0521, 0.99)]
for r in rows:
    if isinstance(r[1], str):
        print(f"{r[0]:>5} {r[1]:>8} {r[2]:>6}")
    else:
        print(f"{r[0]:>5} {r[1]:>8.4f} {r[2]:>6.1%}")
print("-" * 21)
print(" | ".join(str(x) for x in range(4)))

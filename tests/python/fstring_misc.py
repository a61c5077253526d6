name = "world"
items = [1, 2]
print(f"hello {name}")
print(f"{name!r} {name!s} {name.upper()}")
print(f"{items} {len(items)} {items[0] + 10}")
print(f"{{literal braces}}")
w = 6
print(f"{3.5:{w}.2f}|")
print(f"{'x' * 3}")
print(f"{1 + 1 = }")
print(f"{-5:+d} {5:+d} {5: d}")
print(f"{1e-5:.2e} {123456.0:.3g} {0.5:g}")

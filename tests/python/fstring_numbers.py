vals = [0, 1.0, -2.5, 1e10, 12345.678, 0.000123]
for v in vals:
    print(f"{v:10.3f}|{v:<12g}|{v:.2e}")
print(f"{1234567.891:,.2f}")
print(f"{7:03d} {-7:03d}")
print(f"{True} {None} {3:5}|{'s':5}|")

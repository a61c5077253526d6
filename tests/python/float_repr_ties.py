# Float repr and formatting against CPython on many floats: dyadic values whose shortest repr is
# an exact tie (CPython rounds half to even), powers of two, random mantissas at every scale,
# and the format-spec / %-format / f-string paths (correctly rounded, ties to even).
import math

state = 12345


def rand(n):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return state % n


values = [2.0 ** -25, -(2.0 ** -25), 2.0 ** -24 * 3, 0.5, 0.125, 0.375, 2.675, 1e22, 1e23]
for k in range(1, 80):
    values.append(2.0 ** -k)
    values.append(2.0 ** k)
for _ in range(600):
    m = rand(2 ** 53)
    e = rand(200) - 120
    values.append(m * 2.0 ** e)
for _ in range(300):
    m = rand(2 ** 53) | 1
    e = rand(2000) - 1000
    v = m * 2.0 ** (e - 52)
    if v != 0.0 and not math.isinf(v):
        values.append(v)
for _ in range(200):
    values.append(rand(10 ** 6) / 1000)
    values.append(rand(2 ** 20) / 2 ** rand(30))
ties = 0
for v in values:
    r = repr(v)
    if float(r) != v:
        print("does not round-trip", r)
    print(r, str(-v), f"{v:.4f}", f"{v:.2e}", f"{v:g}", f"{v:.12g}", "%.3f" % v, "%r" % v, format(v, ".17"))
print(len(values))
print(round(2.675, 2), round(0.125, 2), round(0.375, 2), round(2.5), round(3.5), round(-0.5))
print(f"{0.5:.0f} {1.5:.0f} {2.5:.0f} {0.125:.2f} {0.0625:.3f} {1e-320:.3e} {5e-324!r}")
print(f"{1.0:.20f} {0.1:.25f} {123456789.125:,.2f} {1e16:f} {-0.0:.1f} {float('nan'):5.1f}")

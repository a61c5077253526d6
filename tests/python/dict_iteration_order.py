d = {}
for k in ["zeta", "alpha", "mid"]:
    d[k] = len(k)
for k in d:
    print(k, d[k])
for k, v in d.items():
    print(f"{k}={v}")
d["alpha"] = 99
print(d)
print(sorted(d))
print(dict(zip("abc", range(3))))
print(dict(a=1, b=2))

squares = {n: n * n for n in range(6)}
print(squares)
evens = {k: v for k, v in squares.items() if k % 2 == 0}
print(evens)
inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inv)
print({**{"a": 1}, **{"b": 2, "a": 3}})
print(dict.fromkeys("xy", 0))
d = {"b": 2, "a": 1}
print(d == {"a": 1, "b": 2})

try:
    1 / 0
except ZeroDivisionError as e:
    print("caught:", e)
try:
    [][0]
except (KeyError, IndexError) as e:
    print(type(e).__name__, e)
try:
    int("x")
except ValueError as e:
    print(e)
try:
    {}["k"]
except KeyError as e:
    print("key", e, repr(e))

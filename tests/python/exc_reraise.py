def risky():
    raise KeyError("k")
try:
    try:
        risky()
    except KeyError:
        print("logging and re-raising")
        raise
except KeyError as e:
    print("outer caught", repr(e))
try:
    raise ValueError("a", 1)
except ValueError as e:
    print(e.args, str(e))

def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("could not parse config") from e
print(parse("1"))
parse("x")

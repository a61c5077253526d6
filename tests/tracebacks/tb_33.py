try:
    [][1]
except IndexError as e:
    raise ValueError("bad") from e

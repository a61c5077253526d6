def documented(x):
    """Return x doubled."""
    return 2 * x
print(documented.__doc__)
print(documented(21))
def nodoc():
    return 1
print(nodoc.__doc__)

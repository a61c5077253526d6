def stats(xs):
    return min(xs), max(xs), sum(xs) / len(xs)
lo, hi, mean = stats([4, 8, 15, 16, 23, 42])
print(lo, hi, mean)
print(stats([1, 2]))
def nothing():
    pass
print(nothing())
def early(x):
    if x < 0:
        return "neg"
    return "non-neg"
print(early(-1), early(0))

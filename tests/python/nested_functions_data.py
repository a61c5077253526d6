def pipeline(*steps):
    def run(x):
        for s in steps:
            x = s(x)
        return x
    return run
p = pipeline(lambda x: x + 1, lambda x: x * 10, str)
print(p(4), repr(p(0)))
def memo_fib():
    cache = {}
    def fib(n):
        if n not in cache:
            cache[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
        return cache[n]
    return fib
print(memo_fib()(80))

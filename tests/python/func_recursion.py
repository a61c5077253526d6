def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(20))
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
print([fib(i) for i in range(15)])
def hanoi(n, a="A", b="B", c="C"):
    if n == 0:
        return 0
    return hanoi(n - 1, a, c, b) + 1 + hanoi(n - 1, c, b, a)
print(hanoi(10))

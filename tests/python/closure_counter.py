def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1())
print(c2())
def adder(n):
    return lambda x: x + n
add5 = adder(5)
print(add5(10), adder(1)(1))

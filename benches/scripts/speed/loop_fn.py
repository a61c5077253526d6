# A counting loop inside a function (local variables), 300 000 iterations (interpreter).


def count(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i * 2
        else:
            total -= 1
    return total


def step():
    count(300000)

def classify(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    else:
        return "large"
for v in [-5, 0, 3, 42]:
    print(v, classify(v))
x = 5
print("odd" if x % 2 else "even")
if not []:
    print("empty list is falsy")

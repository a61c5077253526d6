def greet(name, greeting="Hello", punct="!"):
    return f"{greeting}, {name}{punct}"
print(greet("Ann"))
print(greet("Bob", "Hi"))
print(greet("Cy", punct="?"))
print(greet(greeting="Yo", name="Di"))
def append_to(x, acc=None):
    if acc is None:
        acc = []
    acc.append(x)
    return acc
print(append_to(1), append_to(2))

import random

random.seed(0)
print(random.random())
print(random.randint(1, 10))
items = list(range(8))
random.shuffle(items)
print(items)
print(random.choice(["a", "b", "c"]))
print(random.sample(range(100), 3))
print(random.uniform(0, 1))
print(round(random.gauss(0, 1), 6))

# expect: TimeoutError: the script ran longer than 10 seconds (line 5)
import random
xs = [random.random() for _ in range(10**6)]
for _ in range(1000):
    ys = sorted(xs)

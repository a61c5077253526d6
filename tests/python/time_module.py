import time
t0 = time.time()
t1 = time.time()
print(t1 >= t0)
p0 = time.perf_counter()
s = sum(range(1000))
p1 = time.perf_counter()
print(p1 >= p0, s)
print(type(t0).__name__)

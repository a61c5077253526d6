import numpy as np

i = np.array([1, 2, 3])
f32 = np.array([1.5, 2.5, 3.5], dtype=np.float32)
f = np.array([0.5, 1.5, 2.5])
b = np.array([True, False, True])
for x in [i + 1, i + 1.5, i * 2.0, f32 + 1, f32 * 1.1, f32 + f, i + f32, i / 2, i // 2, i % 2,
          -i, i ** 2, b + 1, b * 1.5, f32 / 3, i.astype(np.int32) + np.int64(1),
          np.float32(2) * i, f // 0.4, f % 0.4, -f % 1.0, 2 ** i, 1 / f32]:
    print(repr(x))
print(i == 2, i != 2, i < 2, f >= 1.5)
print((i > 1) & (i < 3), (i > 2) | (i < 2), ~b, b ^ True)
print(np.maximum(i, 2), np.minimum(f, 1.0), np.abs(-f), np.sign(np.array([-2, 0, 3])))
print(np.sqrt(i), np.exp(f), np.log(f), np.sqrt(f32))
s = np.float32(1.5)
print(type(s * 2).__name__, type(s * 2.0).__name__, type(s + np.float64(1)).__name__)
print(type(np.int64(3) / 2).__name__, type(np.int64(3) + 1.0).__name__, type(np.int32(1) + 1).__name__)
a = np.arange(6).reshape(2, 3)
print(a + np.array([10, 20, 30]), a * np.array([[1], [2]]))
try:
    a + np.array([1, 2])
except ValueError as e:
    print(e)
x = np.ones(3, dtype=np.int64)
try:
    x += 1.5
except Exception as e:
    print(type(e).__name__, e)
x += 2
print(x)
y = np.zeros(3)
y += i
y *= 2
y -= 1
y /= 4
print(y)

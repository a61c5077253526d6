import math
print(math.sin(0), math.cos(0))
print(round(math.sin(math.pi / 2), 10))
print(math.atan2(1, 1))
print(math.hypot(3, 4))
print(math.degrees(math.pi), math.radians(180))
print(math.tanh(0.5))
print(math.trunc(-3.7), math.trunc(3.7))
print(math.copysign(2, -0.0))

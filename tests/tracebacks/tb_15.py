import math
y = math.sqrt(-1) * 2

import math
print(math.floor(1.5))
import pandas_does_not_exist

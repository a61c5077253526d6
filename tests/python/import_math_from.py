from math import sqrt, floor
import math as m
print(sqrt(81), floor(2.7))
print(m.ceil(2.1))
from os import environ
print(type(environ.get("CUDATUTOR_UNSET_XYZ")).__name__)

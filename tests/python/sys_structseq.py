# sys.version_info and sys.float_info are struct sequences: tuple subclasses of the sys module
# whose items also have names
import sys

v = sys.version_info
print(type(v), type(v).__name__, isinstance(v, tuple), isinstance(sys.float_info, tuple))
print(v[:2], v.major, v[0] == v.major, len(v), list(v)[:3])
print(v == tuple(v), v >= (3, 8), v < (4,), hash(v) == hash(tuple(v)), 11 in v)
major, minor, micro, level, serial = v
print(major, minor, level, serial)
print(repr(v))
print(sys.float_info.mant_dig, sys.float_info.radix, sys.float_info[10])
try:
    v.nope
except AttributeError as e:
    print('AttributeError')

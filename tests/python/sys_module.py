# sys: the attributes learners' scripts read, and sys.exit caught as SystemExit.
import sys

print(len(sys.argv), sys.argv[0].endswith("sys_module.py"))
print(sys.version.split()[0], sys.version_info[:2], sys.version_info.major, sys.version_info.minor)
print(sys.version_info >= (3, 8), sys.version_info < (3, 12), tuple(sys.version_info)[:3])
print(sys.version_info)
print(sys.float_info)
print(sys.float_info.max, sys.float_info.epsilon, sys.float_info.dig, sys.float_info.mant_dig)
print(sys.maxsize, sys.maxsize == 2**63 - 1, sys.platform, sys.byteorder)
print(sys.getrecursionlimit())
sys.setrecursionlimit(2000)
print(sys.getrecursionlimit())
sys.setrecursionlimit(1000)
print("sys" in sys.modules)
import math
print("math" in sys.modules, sys.modules["math"] is math)
n = sys.stdout.write("written with sys.stdout.write\n")
print(n)
sys.stdout.flush()
print("to stdout", file=sys.stdout)
print("to stderr", file=sys.stderr)
print(sys.get_int_max_str_digits())
for code in [None, 0, 3, "a message", (1, 2)]:
    try:
        sys.exit(code)
    except SystemExit as e:
        print(type(e).__name__, repr(e.code), e.args)
try:
    sys.exit()
except SystemExit as e:
    print(repr(e.code), e.args, str(e) == "")
try:
    exit(4)
except SystemExit as e:
    print("exit()", e.code)
try:
    quit()
except BaseException as e:
    print("quit()", type(e).__name__, e.code)
try:
    raise SystemExit(7)
except SystemExit as e:
    print(e.code, isinstance(e, BaseException), isinstance(e, Exception))
try:
    sys.setrecursionlimit(0)
except ValueError as e:
    print(e)
try:
    1 / 0
except ZeroDivisionError:
    t, v, tb = sys.exc_info()
    print(t.__name__, v)
print(sys.exc_info())

# io.StringIO / io.BytesIO basics and contextlib.redirect_stdout, suppress, nullcontext,
# contextmanager.
import contextlib
import io
import sys

buf = io.StringIO()
print(buf.write("hello\n"), buf.write("world"), buf.tell())
print(repr(buf.getvalue()), repr(buf.read()))
print(buf.seek(0), repr(buf.read(3)), repr(buf.readline()), repr(buf.readline()), repr(buf.readline()))
buf.seek(0)
print(list(buf), buf.readable(), buf.writable(), buf.seekable())
buf.seek(2)
buf.write("XY")
print(repr(buf.getvalue()), buf.tell())
buf.seek(0, 2)
buf.write("!")
print(repr(buf.getvalue()), buf.truncate(4), repr(buf.getvalue()))
buf.seek(10)
buf.write("z")
print(repr(buf.getvalue()))

s = io.StringIO("line 1\nline 2\nline 3")
print(s.readlines(), s.tell())
for line in io.StringIO("a\nb\n"):
    print(repr(line))
print(type(s), type(s).__name__, type(s).__mro__, repr(s).startswith("<_io.StringIO object at 0x"))
print(io.StringIO(None).getvalue() == "", io.SEEK_SET, io.SEEK_CUR, io.SEEK_END)

for bad in [lambda: s.write(3), lambda: s.seek(-1), lambda: io.StringIO(5), lambda: s.seek(0, 5)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
try:
    s.seek(1, 1)
except OSError as e:
    print("OSError", e)

with io.StringIO() as f:
    print("inside", file=f)
    print("two", "parts", sep=",", end="|", file=f)
    text = f.getvalue()
print(repr(text), f.closed)
for op in [f.getvalue, f.read, lambda: f.write("x"), f.tell]:
    try:
        op()
    except ValueError as e:
        print("ValueError", e)
try:
    with f:
        pass
except ValueError as e:
    print("ValueError", e)

out = io.StringIO()
with contextlib.redirect_stdout(out) as target:
    print("captured", 1, 2)
    sys.stdout.write("direct\n")
    print(target is out)
print("after", repr(out.getvalue()))
print(sys.stdout is sys.__stdout__)

err = io.StringIO()
with contextlib.redirect_stderr(err):
    print("to stderr", file=sys.stderr)
print(repr(err.getvalue()))

nested_outer, nested_inner = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(nested_outer):
    print("outer")
    with contextlib.redirect_stdout(nested_inner):
        print("inner")
    print("outer again")
print(repr(nested_outer.getvalue()), repr(nested_inner.getvalue()))

try:
    with contextlib.redirect_stdout(io.StringIO()):
        raise KeyError("boom")
except KeyError as e:
    print("KeyError", e, "restored:", sys.stdout is sys.__stdout__)

with contextlib.suppress(ZeroDivisionError, KeyError):
    1 / 0
print("suppressed")
try:
    with contextlib.suppress(KeyError):
        [][1]
except IndexError as e:
    print("IndexError", e)
with contextlib.nullcontext(42) as v:
    print("null", v)


@contextlib.contextmanager
def tagged(name):
    print("<" + name + ">")
    try:
        yield name.upper()
    finally:
        print("</" + name + ">")


with tagged("b") as t:
    print("body", t)
try:
    with tagged("i"):
        raise ValueError("inner")
except ValueError as e:
    print("ValueError", e)
print(tagged.__name__)

b = io.BytesIO()
print(type(b), type(b).__mro__, repr(b).startswith("<_io.BytesIO object at 0x"), b.tell())
for bad in [lambda: b.write("text"), lambda: io.BytesIO("text"), lambda: b.seek(-2)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
with io.BytesIO() as b2:
    print(b2.seekable(), b2.closed)
print(b2.closed)
try:
    b2.tell()
except ValueError as e:
    print("ValueError", e)

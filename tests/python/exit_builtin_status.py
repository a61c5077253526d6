# The exit() builtin with a code; an uncaught SystemExit raised directly too.
print("start")
if True:
    raise SystemExit(2)

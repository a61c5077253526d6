# The warnings module: filters, registries, catch_warnings(record=True), showwarning and
# formatwarning hooks, and the "error" action.
import warnings


def show(caught):
    for w in caught:
        print(w.category.__name__, str(w.message), w.lineno > 0, type(w.message).__name__)


def f():
    warnings.warn("from f")


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    f()
    f()
    warnings.warn("deprecated", DeprecationWarning)
    warnings.warn(FutureWarning("an instance"))
    warnings.warn("runtime", category=RuntimeWarning, stacklevel=2)
show(caught)
print(len(caught))

# "default" shows a message once per line that warns, "once" once wherever it warns from
for action, text in [("default", "once per line"), ("once", "only once")]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action)
        for i in range(3):
            warnings.warn(text)
        warnings.warn(text)
    show(caught)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="skip me")
    warnings.filterwarnings("ignore", message=".*quiet")
    warnings.warn("skip me please")
    warnings.warn("SKIP ME too")
    warnings.warn("be quiet")
    warnings.warn("keep me")
    warnings.filterwarnings("ignore", category=UserWarning)
    warnings.warn("user, ignored")
    warnings.warn("future, kept", FutureWarning)
show(caught)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("ignore")
    warnings.warn("nothing")
print(caught)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("not recorded")
print("no record:", warnings.catch_warnings().__enter__() is None)

print(warnings.formatwarning("msg", UserWarning, "file.py", 12, "x = 1"))
print(repr(warnings.formatwarning("msg", RuntimeWarning, "file.py", 3, "")))

seen = []


def hook(message, category, filename, lineno, file=None, line=None):
    seen.append((str(message), category.__name__))


old = warnings.showwarning
warnings.showwarning = hook
warnings.simplefilter("always")
warnings.warn("hooked")
warnings.showwarning = old
print(seen)

m = warnings.WarningMessage("text", UserWarning, "a.py", 5)
print(str(m))

try:
    warnings.warn("bad", category=int)
except TypeError as e:
    print("TypeError:", e)

try:
    warnings.simplefilter("sometimes")
except AssertionError as e:
    print("AssertionError:", e)

warnings.resetwarnings()
print(warnings.filters)
with warnings.catch_warnings(action="error"):
    try:
        warnings.warn("now an error")
    except UserWarning as e:
        print("raised", type(e).__name__, e)

warnings.simplefilter("error", RuntimeWarning)
warnings.warn("boom", RuntimeWarning)
print("not reached")

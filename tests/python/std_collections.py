# collections: namedtuple, Counter, defaultdict, OrderedDict, deque as CPython prints them.
from collections import namedtuple, Counter, defaultdict, OrderedDict, deque
P = namedtuple("P", ["x", "y"])
pt = P(1, y=2)
print(pt, pt.x, pt[1], pt == (1, 2), len(pt), list(pt), pt._asdict(), pt._replace(x=9))
x, y = pt
print(x + y, P._fields, hash(pt) == hash((1, 2)))
c = Counter("mississippi")
print(c, c["s"], c["z"], c.most_common(2), sorted(c.elements())[:4], c.total())
c.update("ss")
print(c["s"], c + Counter("m"), c - Counter("ssssss"))
dd = defaultdict(list)
dd["a"].append(1)
dd["b"].append(2)
dd["a"].append(3)
print(dd, dict(dd), len(dd), "a" in dd, sorted(dd.items()))
cnt = defaultdict(int)
for w in "the cat the hat".split():
    cnt[w] += 1
print(cnt)
od = OrderedDict([("b", 1), ("a", 2)])
od["c"] = 3
od.move_to_end("b")
print(od, list(od.keys()), od.popitem())
dq = deque([1, 2, 3], maxlen=3)
dq.append(4)
dq.appendleft(0)
print(dq, dq.popleft(), dq.pop(), len(dq), dq[0], dq.maxlen)
dq2 = deque(range(5))
dq2.rotate(2)
print(dq2, list(reversed(dq2)))
Batch = namedtuple("Batch", "inputs targets", defaults=[None])
b = Batch([1, 2])
print(b, b.targets, Batch._field_defaults)
for bad in [lambda: P(1), lambda: P(1, 2, 3), lambda: P(1, z=2), lambda: namedtuple("Q", "a _b"),
            lambda: namedtuple("Q", "a a"), lambda: namedtuple("Q", "a class")]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    pt.x = 5
except AttributeError as e:
    print(e)
print(sorted([P(2, 1), P(1, 5), P(1, 2)]), max(P(1, 2), P(1, 3)))
print(Counter({"a": 2, "b": 0}) == Counter({"a": 2}), Counter(a=3, b=1), Counter("aab") & Counter("abb"))
print(+Counter({"a": 1, "b": -2}), -Counter({"a": 1, "b": -2}), Counter("abc") | Counter("aa"))
word_counts = Counter("the quick the lazy the end".split())
for word, n in word_counts.most_common():
    print(word, n)
try:
    defaultdict(None)["missing"]
except KeyError as e:
    print("KeyError", e)
nested = defaultdict(lambda: defaultdict(int))
nested["x"]["y"] += 2
print(nested["x"]["y"], dict(nested["x"]))
print(OrderedDict(a=1) == OrderedDict(a=1), OrderedDict([("a", 1), ("b", 2)]) == OrderedDict([("b", 2), ("a", 1)]))
print(OrderedDict([("a", 1), ("b", 2)]) == {"b": 2, "a": 1})
window = deque(maxlen=3)
for v in range(6):
    window.append(v)
    print(list(window), sum(window) / len(window))
for bad in [lambda: deque().pop(), lambda: deque()[0], lambda: deque(maxlen=-1)]:
    try:
        bad()
    except (IndexError, ValueError) as e:
        print(type(e).__name__, e)

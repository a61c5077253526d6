# OrderedDict, defaultdict and Counter are dicts (isinstance, issubclass), an OrderedDict's
# views print as odict_keys/odict_values/odict_items, dict views are reversible, and keys/items
# views compare as sets (never equal to a list; a values view only to itself).
import collections
import dataclasses
import json

od = collections.OrderedDict([('b', 1), ('a', 2)])
dd = collections.defaultdict(list)
dd['x'].append(1)
c = collections.Counter('abca')
print(isinstance(od, dict), isinstance(dd, dict), isinstance(c, dict))
print(issubclass(collections.OrderedDict, dict), issubclass(collections.Counter, dict))
print(od.keys(), od.values(), od.items())
print(type(od.keys()).__name__, len(od.keys()), 'a' in od.keys(), list(od.keys()))
print(list(reversed(od.keys())), list(reversed(od.values())), list(reversed(od.items())))
d = {'p': 1, 'q': 2}
print(list(reversed(d.keys())), list(reversed(d.values())), list(reversed(d.items())))
print(json.dumps(od), json.dumps(c), json.dumps({'k': od}))
print(dict(od), {**od}, od == {'b': 1, 'a': 2}, od)
print(dd.keys(), c.keys())


@dataclasses.dataclass
class P:
    m: dict


print(dataclasses.asdict(P(od)))
try:
    dataclasses.asdict(P(dd))
except TypeError as e:
    print(e)
try:
    reversed(5)
except TypeError as e:
    print(e)
print(od.keys() == {'a', 'b'}, od.items() == [('b', 1), ('a', 2)])
d = {'a': 1}
print(d.keys() == ['a'], d.keys() == {'a'}, d.items() == {('a', 1)}, d.values() == d.values())
print(d.keys() == d.keys(), d.keys() == frozenset(['a']), d.keys() != ['a'])
v = d.values()
print(v == v, d.keys() == {'a': 5}.keys(), d.items() == d.keys())
# callable() of objects the interpreter implements natively: a view or a generator is not
print(callable((x for x in [])), callable({}.keys()), callable(iter([])), callable(len), callable(dict))

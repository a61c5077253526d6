import json

data = {"name": "mlp", "layers": [784, 128, 10], "lr": 0.001, "ok": True, "note": None}
s = json.dumps(data)
print(s)
print(json.dumps(data, indent=4, sort_keys=True))
print(json.dumps([1, [2, [3, {}]], []], indent=2))
print(json.dumps({"b": 1, "a": (1, 2)}, separators=(",", ":")))
print(json.dumps("héllo \"q\"\n\t\\ €"))
print(json.dumps("héllo €", ensure_ascii=False))
print(json.dumps({1: "int key", 2.5: "float", True: "bool", None: "none"}))
print(json.dumps([float("inf"), float("-inf"), 1e100, 1e-7, 0.1 + 0.2]))
print(json.dumps({"x": 1}, indent="\t"))
back = json.loads(s)
print(back == data, back["layers"], type(back["lr"]).__name__)
print(json.loads('  {"a": [1, 2.5, -3e2, true, false, null], "b": "\\u00e9\\n\\ud83d\\ude00"} '))
print(json.loads("[]"), json.loads("{}"), json.loads('"x"'), json.loads("12"), json.loads("-0.5"))
print(json.loads('NaN'), json.loads('[Infinity, -Infinity]'))
print(json.dumps(set and sorted({3, 1, 2})))
print(json.dumps({"p": 1.0}, default=str))
print(json.dumps({"obj": object}, default=lambda o: o.__name__))
for bad in ['', '{"a" 1}', '[1, 2', '{"a": 1,}', '[1,]', 'tru', '{"a": 1} x', "{'a': 1}", '"abc']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print("JSONDecodeError:", e, "|", e.pos, e.lineno, e.colno)
    except ValueError as e:
        print("ValueError?", e)
try:
    json.dumps({(1, 2): 3})
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps({1, 2})
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError:", e)
loop = []
loop.append(loop)
try:
    json.dumps(loop)
except ValueError as e:
    print("ValueError:", e)
print(issubclass(json.JSONDecodeError, ValueError))
print(json.loads('{"a": 1, "a": 2}'))
print(json.loads('{"a": {"b": [1, {"c": 2}]}}', object_hook=lambda d: sorted(d)))
json.loads("[1, 2")

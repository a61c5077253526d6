from collections import defaultdict
d = defaultdict(None)
print(d["k"])

config = {"model": {"layers": [64, 32], "act": "relu"}, "lr": 0.001}
print(config["model"]["layers"][1])
config["model"]["layers"].append(10)
print(config)
counts = {}
for w in "the cat the dog the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts)
print(max(counts, key=counts.get))
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

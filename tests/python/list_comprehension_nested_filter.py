words = ["apple", "Bob", "kayak", "level", "tree"]
print([w for w in words if w.lower() == w.lower()[::-1]])
print([[i * j for j in range(1, 4)] for i in range(1, 4)])
flat = [x for row in [[1, 2], [3], []] for x in row]
print(flat)
print({w[0].lower() for w in words})
print(sum(1 for w in words if len(w) > 4))

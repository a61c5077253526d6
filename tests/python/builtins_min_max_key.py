words = ["kiwi", "banana", "fig", "apple"]
print(min(words), max(words))
print(min(words, key=len), max(words, key=len))
print(max([3, 1, 2]), min(3, 1, 2))
print(max([], default="empty"))
print(max([(1, "b"), (1, "a")]))
d = {"x": 3, "y": 7, "z": 5}
print(max(d, key=lambda k: d[k]))
print(min([-5, 2, -1], key=abs))

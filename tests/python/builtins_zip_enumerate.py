names = ["a", "b", "c"]
scores = [90, 80]
print(list(zip(names, scores)))
print(list(zip(names, range(3), "xyz")))
for i, n in enumerate(names, start=1):
    print(i, n)
print(list(enumerate("hi")))
pairs = [(1, "one"), (2, "two")]
nums, words = zip(*pairs)
print(nums, words)
print(dict(zip(names, scores)))

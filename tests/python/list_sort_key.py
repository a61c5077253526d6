words = ["banana", "Apple", "cherry", "date"]
print(sorted(words))
print(sorted(words, key=str.lower))
print(sorted(words, key=len))
print(sorted(words, key=len, reverse=True))
pairs = [(1, "b"), (2, "a"), (1, "a")]
print(sorted(pairs))
print(sorted(pairs, key=lambda p: p[1]))
nums = [5, -3, 2, -8]
nums.sort(key=abs)
print(nums)

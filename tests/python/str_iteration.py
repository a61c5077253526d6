word = "python"
for i, ch in enumerate(word):
    print(i, ch)
vowels = [c for c in word if c in "aeiouy"]
print(vowels)
counts = {}
for ch in "mississippi":
    counts[ch] = counts.get(ch, 0) + 1
print(counts)

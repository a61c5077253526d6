text = """the quick brown fox jumps over the lazy dog
the dog barks and the fox runs"""
words = text.split()
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
for w, c in top:
    print(f"{w:<6}{c}")
print(len(words), len(freq))

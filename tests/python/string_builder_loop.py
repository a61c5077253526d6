out = ""
for i in range(5):
    out += str(i) * i
print(out)
parts = []
for word in ["alpha", "beta", "gamma"]:
    parts.append(word[0].upper() + word[1:])
print(", ".join(parts))
print("abc" + "def" == "abcdef")

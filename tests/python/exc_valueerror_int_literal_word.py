text = "abc"
n = int(text)
print(n)

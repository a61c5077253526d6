s = "  Hello World  "
print(s.strip().lower().replace("world", "there").split())
print(",".join(sorted(set("a,b,a,c".split(",")))))
print("x".join("abc").upper())
print(" ".join(w.capitalize() for w in "make me title".split()))

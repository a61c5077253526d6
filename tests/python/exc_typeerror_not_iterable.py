print(list("ab"))
for v in 42:
    print(v)

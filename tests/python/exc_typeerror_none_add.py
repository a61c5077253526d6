def get():
    pass
v = get()
print(v)
v + 1

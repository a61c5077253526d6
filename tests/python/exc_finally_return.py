def f():
    try:
        return "from try"
    finally:
        print("finally runs first")
print(f())
def g():
    for i in range(3):
        try:
            if i == 1:
                continue
            print("body", i)
        finally:
            print("cleanup", i)
g()

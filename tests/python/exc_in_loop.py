data = ["1", "two", "3", None, "5"]
total = 0
for item in data:
    try:
        total += int(item)
    except ValueError:
        print("skip value", repr(item))
    except TypeError:
        print("skip type", repr(item))
print("total", total)

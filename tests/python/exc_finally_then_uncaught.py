try:
    print("work")
    raise TypeError("bad type here")
finally:
    print("finally still runs")

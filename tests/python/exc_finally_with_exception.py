def f():
    try:
        raise ValueError("inner")
    finally:
        print("finally before propagation")
try:
    f()
except ValueError as e:
    print("caught", e)
try:
    try:
        raise TypeError("t")
    except ValueError:
        print("not here")
    finally:
        print("inner finally")
except TypeError:
    print("outer got TypeError")

class Tracker:
    def __enter__(self):
        print("open")
        return self
    def __exit__(self, et, ev, tb):
        print("close", et.__name__ if et else "clean", ev)
        return False
try:
    with Tracker():
        print("working")
        raise KeyError("lost")
except KeyError as e:
    print("handled", e)
with Tracker() as t:
    print(type(t).__name__)

class Suppress:
    def __enter__(self):
        return "value"
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            print("suppressing", exc_type.__name__, exc)
        return True
with Suppress() as v:
    print(v)
    raise ValueError("boom")
    print("unreachable")
print("after with")

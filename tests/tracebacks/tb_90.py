def worker():
    try:
        yield "started"
    finally:
        print("closing worker")


w = worker()
next(w)
w.throw(KeyError("stop"))

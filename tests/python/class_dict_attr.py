class Cfg:
    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)
c = Cfg(lr=0.1, epochs=3)
print(c.lr, c.epochs)
print(getattr(c, "lr"), getattr(c, "missing", None))
print(hasattr(c, "epochs"), hasattr(c, "batch"))
print(c.__dict__)
delattr(c, "lr")
print(c.__dict__)

for exc in [ZeroDivisionError, KeyError, IndexError, ValueError, TypeError, NameError, UnboundLocalError, RecursionError, StopIteration, ModuleNotFoundError, NotImplementedError]:
    print(exc.__name__, [b.__name__ for b in exc.__mro__[1:]])

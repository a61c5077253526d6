y = [1].foo

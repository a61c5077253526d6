def outer():
    total = []
    level = 0
    def middle():
        nonlocal level
        level += 1
        def inner():
            nonlocal level
            level += 10
            total.append(level)
        inner()
        inner()
    middle()
    return level, total
print(outer())

def check(lr):
    if lr <= 0:
        raise ValueError(f"learning rate must be positive, got {lr}")
    return lr
print(check(0.1))
check(-1)

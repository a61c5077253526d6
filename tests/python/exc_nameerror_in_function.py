def compute():
    total = 10
    return totl * 2
print("start")
compute()

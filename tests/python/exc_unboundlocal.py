count = 0
def inc():
    count += 1
    return count
print("calling")
inc()

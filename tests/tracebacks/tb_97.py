data = [3, 1, "x"]
total = sum(
    v * 2
    for v in data
    if v > 0
)

for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
    print(i)
result = []
for i in range(3):
    for j in range(3):
        if j == i:
            continue
        if j > 1:
            break
        result.append((i, j))
print(result)

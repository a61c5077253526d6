w = 0.0
lr = 0.1
data = [(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)]
for epoch in range(5):
    grad = sum(2 * (w * x - y) * x for x, y in data) / len(data)
    w -= lr * grad
    loss = sum((w * x - y) ** 2 for x, y in data) / len(data)
    print(f"epoch {epoch}: w={w:.4f} loss={loss:.6f}")

batch = [1, 2, 3]
assert len(batch) == 3, "batch size ok"
print("first assert passed")
assert len(batch) == 4, f"expected 4 items, got {len(batch)}"

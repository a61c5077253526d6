try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("assert failed:", e)
try:
    assert False
except AssertionError as e:
    print("empty message:", repr(str(e)))
assert True, "never shown"
print("ok")

y = {"a": 1}
print(y["a"] + y["b"])

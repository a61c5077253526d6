x = None
print(x.shape[0])

# expect: SystemError: len works and the chain was freed
x = []
for _ in range(10**6):
    x = [x]
print(len(x))
x = None
raise SystemError('len works and the chain was freed')

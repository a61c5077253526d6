# expect: SystemError: freed
it = iter([1, 2, 3])
for _ in range(10**6):
    it = map(abs, it)
del it
raise SystemError('freed')

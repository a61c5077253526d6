x = 1
y = x.real.foo

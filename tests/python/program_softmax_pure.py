import math
def softmax(xs):
    m = max(xs)
    exps = [math.exp(x - m) for x in xs]
    s = sum(exps)
    return [e / s for e in exps]
p = softmax([1.0, 2.0, 3.0])
print([round(v, 6) for v in p])
print(round(sum(p), 12))
print(-math.log(p[2]))

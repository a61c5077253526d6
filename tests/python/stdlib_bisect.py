# bisect: bisect_left/bisect_right with lo, hi and key, insort_left/insort_right and the
# bisect/insort aliases, and the error for a negative lo
import bisect
a = [1, 2, 2, 2, 5, 9]
print(bisect.bisect_right(a, 2), bisect.bisect_left(a, 2), bisect.bisect(a, 0), bisect.bisect(a, 10), bisect.bisect_left(a, 2, 2), bisect.bisect_right(a, 2, 0, 2))
b = list(a); bisect.insort(b, 3); bisect.insort_left(b, 2); bisect.insort_right(b, 0); print(b)
words = [('a', 1), ('b', 5), ('c', 9)]
print(bisect.bisect_left(words, 5, key=lambda w: w[1]), bisect.bisect_right(words, 5, key=lambda w: w[1]))
w = list(words); bisect.insort(w, ('x', 6), key=lambda p: p[1]); print(w)
try:
    bisect.bisect(a, 1, -1)
except ValueError as e:
    print('ValueError', e)

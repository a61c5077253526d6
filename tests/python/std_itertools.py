# itertools as learners use it (count/islice/chain/product/zip_longest/groupby ...), lazily.
import itertools
print(list(itertools.islice(itertools.count(5, 2), 4)))
print(list(itertools.chain([1, 2], "ab")), list(itertools.chain.from_iterable([[1], [2, 3]])))
print(list(itertools.product("ab", range(2))), list(itertools.product([0, 1], repeat=2)))
print(list(itertools.permutations(range(3), 2)), list(itertools.combinations("abcd", 2)))
print(list(itertools.zip_longest([1, 2, 3], "ab", fillvalue="-")))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([1, 2, 3], lambda a, b: a * b)))
print([(k, list(g)) for k, g in itertools.groupby("aaabbc")])
print(list(itertools.repeat("x", 3)), list(itertools.islice(itertools.cycle("ab"), 5)))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.pairwise("abcd")))
print(list(itertools.combinations_with_replacement("ab", 2)), list(itertools.compress("abcd", [1, 0, 1, 0])))
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b))
print(list(itertools.islice(range(10), 2, 8, 3)), list(itertools.islice("abcdef", None)))
gen = itertools.count()
print(next(gen), next(gen), list(itertools.islice(gen, 3)))
print(list(zip(itertools.count(1), "xyz")), list(itertools.product()))
print(list(itertools.permutations("ab")), list(itertools.combinations(range(4), 5)))
for bad in [lambda: itertools.islice([1], -1), lambda: itertools.islice([1], 0, 2, 0),
            lambda: itertools.zip_longest(5), lambda: itertools.count("a"),
            lambda: itertools.combinations([1], -1), lambda: itertools.product([1], repeat=-1)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
words = ["apple", "avocado", "banana", "blueberry", "cherry"]
for letter, group in itertools.groupby(words, key=lambda w: w[0]):
    print(letter, list(group))
groups = itertools.groupby([1, 1, 2, 2, 2, 3])
k1, g1 = next(groups)
k2, g2 = next(groups)
print(k1, list(g1), k2, list(g2))
batches = list(itertools.islice(itertools.cycle([[1, 2], [3]]), 5))
print(batches)

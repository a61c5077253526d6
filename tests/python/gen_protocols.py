# Generators where learners meet them: __iter__ written as a generator (a Dataset / DataLoader),
# infinite generators with zip/enumerate, yield from, generators passed around lazily.
class ToyDataset:
    def __init__(self, n):
        self.data = [(i, i * i) for i in range(n)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


class ToyLoader:
    def __init__(self, dataset, batch_size):
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        batch = []
        for i in range(len(self.dataset)):
            batch.append(self.dataset[i])
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch:
            yield batch

    def __len__(self):
        return (len(self.dataset) + self.batch_size - 1) // self.batch_size


loader = ToyLoader(ToyDataset(5), 2)
print(len(loader))
for epoch in range(2):
    for step, batch in enumerate(loader):
        xs = [x for x, _ in batch]
        print(epoch, step, xs, sum(y for _, y in batch))
it = iter(loader)
print(next(it), next(it))


def naturals(start=0):
    n = start
    while True:
        yield n
        n += 1


print(list(zip(naturals(), "abc")))
for i, n in enumerate(naturals(10)):
    if i == 3:
        break
    print(i, n)


def flatten(nested):
    for item in nested:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


print(list(flatten([1, [2, [3, [4]], 5], [[6]]])))


def chunk_sizes():
    got = yield from (x for x in [3, 4])
    return got


def collect():
    result = yield from chunk_sizes()
    yield ("inner returned", result)


print(list(collect()))


def tail():
    value = yield "first"
    yield f"sent {value}"


def delegating():
    yield from tail()


d = delegating()
print(next(d), d.send("hello"))
print(any(x > 2 for x in naturals()), all(x < 5 for x in naturals()))
print(max((x * 7) % 10 for x in range(10)), min(x for x in [3, 1, 2]))
print(sorted(x % 3 for x in range(7)), tuple(x for x in "ab"), set(x % 2 for x in range(5)))
print(dict((k, k * 2) for k in range(3)), "-".join(str(x) for x in range(4)))
gen_a = (x for x in range(3))
print(list(zip(gen_a, gen_a)))

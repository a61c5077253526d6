import torch


class Batches:
    def __init__(self, data, size):
        self.data = data
        self.size = size

    def __iter__(self):
        self.pos = 0
        return self

    def __next__(self):
        if self.pos >= len(self.data):
            raise StopIteration
        batch = self.data[self.pos:self.pos + self.size]
        self.pos += self.size
        return batch


for b in Batches(torch.arange(10), 4):
    print(b)
print(len(list(Batches(torch.arange(10), 3))))

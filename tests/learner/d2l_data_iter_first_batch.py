import random
import torch


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


random.seed(42)
features = torch.arange(20, dtype=torch.float32).reshape(10, 2)
labels = torch.arange(10, dtype=torch.float32).reshape(-1, 1)
batch_size = 4
for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break
print(random.random())

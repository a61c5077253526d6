# expect: ValueError: too many dimensions 'list'
import torch
x = 1.0
for _ in range(10**6):
    x = [x]
print(torch.tensor(x))

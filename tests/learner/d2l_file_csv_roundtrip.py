import os
import torch

os.makedirs(os.path.join('..', 'data'), exist_ok=True)
data_file = os.path.join('..', 'data', 'points.csv')
torch.manual_seed(0)
X = torch.randint(0, 10, (4, 2))
with open(data_file, 'w') as f:
    f.write('x1,x2,label\n')
    for row in X.tolist():
        f.write(f'{row[0]},{row[1]},{int(sum(row) > 9)}\n')

print(os.path.exists(data_file), os.listdir(os.path.join('..', 'data')))
with open(data_file) as f:
    lines = f.read().splitlines()
print(lines)
values = [[int(v) for v in line.split(',')] for line in lines[1:]]
t = torch.tensor(values, dtype=torch.float32)
features, labels = t[:, :2], t[:, 2]
print(features)
print(labels, labels.mean())
with open(os.path.join('..', 'data', 'missing.csv')) as f:
    print(f.read())

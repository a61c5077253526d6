import os
import torch

os.makedirs('data', exist_ok=True)
data_file = os.path.join('data', 'house_tiny.csv')
with open(data_file, 'w') as f:
    f.write('NumRooms,Alley,Price\n')
    f.write('NA,Pave,127500\n')
    f.write('2,NA,106000\n')
    f.write('4,NA,178100\n')
    f.write('NA,NA,140000\n')

rows = []
with open(data_file) as f:
    header = f.readline().strip().split(',')
    for line in f:
        rows.append(line.strip().split(','))
print(header)
print(rows)
rooms = [float(r[0]) if r[0] != 'NA' else None for r in rows]
known = [v for v in rooms if v is not None]
mean = sum(known) / len(known)
rooms = [mean if v is None else v for v in rooms]
alley_pave = [1.0 if r[1] == 'Pave' else 0.0 for r in rows]
X = torch.tensor([rooms, alley_pave]).T
y = torch.tensor([float(r[2]) for r in rows])
print(X)
print(y)

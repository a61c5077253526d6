# Reads every kind of file --allow-read supports: csv, plain text, .npy, .npz, torch.load.
import csv
import os
import numpy as np
import torch

print(sorted(os.listdir('data')))
with open('data/table.csv') as f:
    rows = list(csv.DictReader(f))
print(rows[2]['x'], len(rows), os.path.getsize('data/table.csv'))
table = np.loadtxt('data/table.csv', delimiter=',', skiprows=1, usecols=(1, 2))
print(table)
features = np.load('data/features.npy')
print(features.dtype, features.shape)
print(features)
print(np.load('data/fortran.npy'))
with np.load('data/arrays.npz') as z:
    print(sorted(z.files), z['ids'], z['w'].dtype)
x = torch.from_numpy(features)
state = torch.load('data/checkpoint.pt')
print(list(state.keys()))
model = torch.nn.Linear(3, 2)
model.load_state_dict(state)
print(model(x))
extras = torch.load('data/extras.pt')
print(extras['epoch'], extras['best'], extras['classes'], extras['mask'], extras['half'])

# A state_dict is an OrderedDict: a dict to isinstance, its keys print as odict_keys, and it
# stays one through torch.load's map_location and default_collate.
import collections

import torch
from torch.utils.data import default_collate

torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
sd = m.state_dict()
print(sd.keys())
print(isinstance(sd, dict), type(sd).__name__, list(reversed(sd.keys())))
torch.save({'model': sd, 'epoch': 3}, 'ckpt.pt')
ckpt = torch.load('ckpt.pt', map_location='cpu')
print(type(ckpt).__name__, type(ckpt['model']).__name__, ckpt['model'].keys(), ckpt['epoch'])
if isinstance(ckpt, dict) and 'model' in ckpt:
    print(m.load_state_dict(ckpt['model']))
batch = default_collate([collections.OrderedDict(x=torch.tensor(1)), collections.OrderedDict(x=torch.tensor(2))])
print(type(batch).__name__, batch)

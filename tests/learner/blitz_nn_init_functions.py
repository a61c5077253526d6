import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(3, 4)
nn.init.uniform_(w, a=-0.1, b=0.1)
print(w)
nn.init.xavier_normal_(w)
print(w)
nn.init.kaiming_uniform_(w, a=5 ** 0.5)
print(w)
nn.init.ones_(w)
print(w.sum())
nn.init.eye_(w)
print(w)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'))

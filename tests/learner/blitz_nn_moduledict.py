import torch
import torch.nn as nn

torch.manual_seed(0)
heads = nn.ModuleDict({
    "cls": nn.Linear(4, 3),
    "reg": nn.Linear(4, 1),
})
print(heads)
x = torch.randn(2, 4)
for name, head in heads.items():
    print(name, head(x).shape)
print("cls" in heads, len(heads))
acts = nn.ModuleList([nn.ReLU(), nn.Tanh()])
acts.append(nn.Sigmoid())
print(acts)
print(acts[-1](torch.zeros(1)))

import torch
from torch import nn

torch.manual_seed(1)
flatten = nn.Flatten()
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
seq_modules = nn.Sequential(
    flatten,
    layer1,
    nn.ReLU(),
    nn.Linear(20, 10),
)
input_image = torch.rand(3, 28, 28)
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(pred_probab.sum(dim=1))
print(seq_modules)

import torch.nn as nn

layer = nn.Linear(in_features=3, out_features=2)
print(layer)
print(layer.weight.shape, layer.bias.shape)
print(layer.in_features, layer.out_features)
nobias = nn.Linear(4, 4, bias=False)
print(nobias, nobias.bias)
print(type(layer.weight))
print(layer.weight.requires_grad)

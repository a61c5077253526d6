import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)


@torch.no_grad()
def predict(x):
    return model(x)


def predict_plain(x):
    return model(x)


x = torch.ones(1, 2)
print(predict(x).requires_grad)
print(predict_plain(x).requires_grad)
print(torch.is_grad_enabled())

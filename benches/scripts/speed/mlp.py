# MLP 784-256-10 training step (zero_grad, forward, cross_entropy, backward, optimizer step).
# Each row of scripts/bench_table.py fills in the batch size and the optimizer (its class and
# settings, built on the model's parameters): the SGD and Adam rows time the same model and data.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
opt = OPTIMIZER
x = torch.randn(BATCH, 784)
y = torch.randint(0, 10, (BATCH,))


def step():
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()

import math
import torch


class TrainingError(Exception):
    pass


losses = [0.9, 0.7, float("nan")]
for step, l in enumerate(losses):
    loss = torch.tensor(l)
    print(step, loss)
    if torch.isnan(loss):
        raise TrainingError(f"loss is nan at step {step}")

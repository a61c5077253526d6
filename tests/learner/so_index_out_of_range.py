import torch

scores = torch.tensor([0.1, 0.7, 0.2])
print(scores[2])
print(scores[-3])
print(scores[3])

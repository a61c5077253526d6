import torch

preds = torch.tensor([[-2.3, -0.1, -4.0], [-0.7, -1.2, -1.5], [-3.0, -2.0, -0.2]])
target = torch.tensor([1, 0, 2])
print(preds[range(target.shape[0]), target])
print(preds[torch.arange(3), target])
print(preds[[0, 2]])
print(preds[:, [2, 0]])
print(-preds[range(3), target].mean())
print(preds[target == 0])

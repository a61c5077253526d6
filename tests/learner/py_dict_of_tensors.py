import torch

metrics = {"loss": torch.tensor(0.5), "acc": torch.tensor(0.75)}
print(metrics)
print({k: v.item() for k, v in metrics.items()})
scores = {"a": torch.tensor(3.0), "b": torch.tensor(1.0), "c": torch.tensor(2.0)}
best = max(scores, key=lambda k: scores[k])
print(best)
print(sorted(scores.items(), key=lambda kv: kv[1].item()))
print(list(scores.keys()), len(scores))

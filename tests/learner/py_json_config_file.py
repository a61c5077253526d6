import json
import torch

config_text = """
{
    "model": {"hidden": [32, 16], "dropout": 0.1},
    "train": {"lr": 0.01, "epochs": 2, "shuffle": true},
    "name": "tiny-mlp"
}
"""
cfg = json.loads(config_text)
print(cfg["name"], cfg["model"]["hidden"], cfg["train"]["shuffle"])
layers = []
sizes = [8] + cfg["model"]["hidden"]
for a, b in zip(sizes, sizes[1:]):
    layers += [torch.nn.Linear(a, b), torch.nn.ReLU(), torch.nn.Dropout(cfg["model"]["dropout"])]
net = torch.nn.Sequential(*layers)
print(net)
print(json.dumps(cfg["train"], indent=4, sort_keys=True))
try:
    json.loads("{'lr': 0.1}")
except json.JSONDecodeError as e:
    print("bad config:", e)
json.loads('{"lr": 0.1,}')

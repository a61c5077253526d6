import json
import torch

torch.manual_seed(0)
state = {"epoch": 3, "loss": torch.tensor(0.25).item(), "weights": torch.arange(3).tolist()}
s = json.dumps(state)
print(s)
back = json.loads(s)
print(back["weights"], type(back["loss"]).__name__)
print(json.dumps({"a": [1.5, 2]}, indent=2))
try:
    json.dumps({"t": torch.tensor(1)})
except TypeError as e:
    print("TypeError:", e)

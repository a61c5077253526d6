import json
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 3)
y = x.sum(dim=1, keepdim=True)
history = []
for epoch in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    history.append({"epoch": epoch, "loss": round(loss.item(), 4)})

with open("history.json", "w") as f:
    json.dump(history, f, indent=2)

with open("history.json") as f:
    loaded = json.load(f)
print(json.dumps(loaded[-1]))
print(len(loaded), loaded[0]["epoch"], loaded[2]["loss"] < loaded[0]["loss"])
print(json.dumps({"weights": model.weight.detach().round(decimals=3).tolist()}, sort_keys=True))

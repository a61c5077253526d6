import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
with open("train.log", "w") as log:
    for step in range(4):
        loss = (w ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.25 * w.grad
        w.grad.zero_()
        print(f"step {step}: loss={loss.item():.5f}", file=log)

with open("train.log") as f:
    for line in f:
        print(line, end="")
with open("train.log") as f:
    print(len(f.readlines()), "lines")
log = open("train.log")
log.close()
log.read()

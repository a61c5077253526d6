import torch


def check(loss):
    if loss < 0.1:
        print("converged")
        raise SystemExit(0)


for loss in [0.5, 0.2, 0.05, 0.01]:
    print("loss", loss)
    check(torch.tensor(loss))
print("never")

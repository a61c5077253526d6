import torch
t = torch.tensor(0.123456)
print(f"{t.item():.3f}")
print(f"{t:.2f}")
print("loss: %.4f" % t.item())
print("{:.1f}".format(torch.tensor(2.25).item()))
print(f"{torch.tensor([1, 2])}")

import torch

learning_rate = 1e-3
batch_size = 64
epochs = 5
print(f"lr={learning_rate}, batch={batch_size}, epochs={epochs}")
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
size = 60000
for batch in [0, 100, 200]:
    loss, current = 2.302585 - batch / 1000, batch * batch_size + batch_size
    print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
print(f"{torch.tensor(0.5):.3f}")

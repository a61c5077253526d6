import torch
import torch.nn as nn

torch.manual_seed(0)
x_train, y_train = torch.randn(40, 5), torch.randint(0, 2, (40,))
x_val, y_val = torch.randn(20, 5), torch.randint(0, 2, (20,))
model = nn.Linear(5, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.CrossEntropyLoss()
best, patience, bad_epochs = float("inf"), 2, 0
for epoch in range(20):
    model.train()
    opt.zero_grad()
    loss_fn(model(x_train), y_train).backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = loss_fn(model(x_val), y_val).item()
    print(f"epoch {epoch:2d} val {val:.4f}")
    if val < best:
        best, bad_epochs = val, 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print("early stop")
            break
print(f"best {best:.4f}")

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Flatten(),
    nn.Linear(28 * 28, 128),
    nn.ReLU(),
    nn.Linear(128, 10),
)
images = torch.rand(32, 1, 28, 28)
labels = torch.randint(0, 10, (32,))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(5):
    optimizer.zero_grad()
    outputs = model(images)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    acc = (outputs.argmax(1) == labels).float().mean()
    print(f"Epoch [{epoch+1}/5], Loss: {loss.item():.4f}, Acc: {acc:.2f}")

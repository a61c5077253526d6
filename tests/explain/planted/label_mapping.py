# A classifier whose labels come from a name -> index mapping counted from 1.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

classes = ['cat', 'dog', 'bird', 'fish', 'frog']
class_to_idx = {name: i + 1 for i, name in enumerate(classes)}
names = ['dog', 'cat', 'fish', 'frog', 'bird', 'dog']
labels = torch.tensor([class_to_idx[n] for n in names])  # entered
labels = labels.to(device)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, len(classes))).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(len(names), 8, device=device)
for step in range(3):
    logits = model(x)
    loss = F.cross_entropy(logits, labels)  # origin
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f'step {step}: loss {loss.item():.4f}')

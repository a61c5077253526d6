import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Sequential(nn.Flatten(), nn.Linear(64, 10))
images = torch.rand(5, 1, 8, 8)
img = images[0]
print(img.shape)
model.eval()
with torch.no_grad():
    logits = model(img.unsqueeze(0))
    pred = logits.argmax().item()
probs = torch.softmax(logits, dim=1)
print(pred, f"{probs[0, pred].item():.4f}")
top3 = probs.topk(3, dim=1)
print(top3.indices, top3.values)

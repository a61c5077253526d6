import torch
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [0.2, 0.1, 3.0], [1.0, 2.0, 0.5]])
labels = torch.tensor([0, 1, 2, 0])
preds = logits.argmax(dim=1)
print(preds)
correct = (preds == labels).sum().item()
print(correct, correct / len(labels))
print(f"accuracy: {100 * correct / labels.numel():.1f}%")

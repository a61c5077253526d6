import torch
from torch import nn

classes = [
    "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
    "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot",
]
torch.manual_seed(2)
model = nn.Sequential(nn.Flatten(), nn.Linear(16, 10))
x = torch.rand(1, 4, 4)
y = 7
model.eval()
with torch.no_grad():
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
print(pred.shape)

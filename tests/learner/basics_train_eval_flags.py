import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5), nn.Linear(3, 1))
print(model.training, model[1].training)
model.eval()
print(model.training, model[1].training)
model.train()
print(model.training)
model.train(False)
print(model[2].training)
print(model[1])

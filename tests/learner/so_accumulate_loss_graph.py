import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
total_loss = 0
for i in range(3):
    loss = (w * i).sum() ** 2
    total_loss += loss
print(total_loss)
print(type(total_loss).__name__, total_loss.requires_grad)
total_loss_item = 0.0
for i in range(3):
    total_loss_item += ((w * i).sum() ** 2).item()
print(total_loss_item)

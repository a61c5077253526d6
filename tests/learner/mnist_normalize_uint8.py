import torch

torch.manual_seed(0)
images = torch.randint(0, 256, (4, 28, 28), dtype=torch.uint8)
print(images.dtype, images.shape)
print(images[0, 0, :8])
x = images.float().div(255)
print(x.min(), x.max())
x = (x - 0.1307) / 0.3081
print(x.mean(), x.std())
print(x.unsqueeze(1).shape)

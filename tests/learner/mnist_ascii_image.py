import torch

torch.manual_seed(0)
img = torch.zeros(8, 8)
img[1:7, 3:5] = 1.0
img += torch.rand(8, 8) * 0.3
for row in img:
    print(''.join('#' if v > 0.5 else '.' for v in row))
print(img.gt(0.5).sum().item())
print(img.shape, img.max().item() <= 1.3)

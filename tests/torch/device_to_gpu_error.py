import torch
x = torch.randn(2)
print(x.to('cpu').shape)
x.to('gpu')

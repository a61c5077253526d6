import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)


@torch.inference_mode()
def infer(v):
    return v * 3


print(infer(x).requires_grad)


@torch.enable_grad()
def grad_inside(v):
    return v * 4


with torch.no_grad():
    print(grad_inside(x).requires_grad)

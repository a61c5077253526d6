import torch

x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 3
print(y.requires_grad, z.requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.inference_mode():
    w = x * 4
print(w.requires_grad, w.is_inference())
print(torch.is_grad_enabled())

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
x = torch.randn(2, 3)
with torch.inference_mode():
    out = model(x)
    print(out.requires_grad, out.is_inference(), torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled(), x.is_inference())
with torch.no_grad():
    y = model(x)
print(y.requires_grad, y.is_inference())
z = out.clone()
print(z.is_inference())
loss = (model(x) * out).sum()

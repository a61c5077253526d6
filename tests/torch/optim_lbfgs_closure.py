import torch
torch.manual_seed(0)
x = torch.randn(20, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
y = x @ true_w + 0.1
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([w, b], lr=1, max_iter=20)
def closure():
    opt.zero_grad()
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    return loss
for i in range(3):
    loss = opt.step(closure)
    print(i, f'{loss.item():.6f}')
print([round(v, 4) for v in w.flatten().tolist()], round(b.item(), 4))
w2 = torch.zeros(3, 1, requires_grad=True)
opt = torch.optim.LBFGS([w2], line_search_fn='strong_wolfe')
def closure2():
    opt.zero_grad()
    loss = ((x @ w2 - y) ** 2).mean()
    loss.backward()
    return loss
for i in range(2):
    loss = opt.step(closure2)
    print(i, f'{loss.item():.6f}')
print([round(v, 4) for v in w2.flatten().tolist()])
print(opt.state[w2]['func_evals'], opt.state[w2]['n_iter'])

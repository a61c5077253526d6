import torch

torch.manual_seed(0)
n_train, num_inputs = 20, 50
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X = torch.normal(0, 1, (n_train, num_inputs))
y = X @ true_w + true_b + torch.normal(0, 0.01, (n_train, 1))


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w, b = init_params()
    lr = 0.003
    for epoch in range(50):
        l = (X @ w + b - y) ** 2 / 2 + lambd * l2_penalty(w)
        l.sum().backward()
        with torch.no_grad():
            for param in (w, b):
                param -= lr * param.grad / n_train
                param.grad.zero_()
    print('w的L2范数是：', torch.norm(w).item())


train(lambd=0)
train(lambd=3)

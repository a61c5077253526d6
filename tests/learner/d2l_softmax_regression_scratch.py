import torch

torch.manual_seed(0)
num_inputs, num_outputs = 16, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


def updater(batch_size, lr=0.1):
    with torch.no_grad():
        for param in [W, b]:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


X = torch.randn(30, 4, 4)
y = torch.randint(0, 3, (30,))
for epoch in range(3):
    for i in range(0, 30, 10):
        l = cross_entropy(net(X[i:i + 10]), y[i:i + 10])
        l.sum().backward()
        updater(10)
    acc = (net(X).argmax(axis=1) == y).float().mean()
    print(f'epoch {epoch + 1}, loss {float(cross_entropy(net(X), y).mean()):f}, acc {acc:.3f}')

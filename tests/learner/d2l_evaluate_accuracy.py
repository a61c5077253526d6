import torch
from torch import nn
from torch.utils import data


def evaluate_accuracy(net, data_iter):
    """计算在指定数据集上模型的精度"""
    if isinstance(net, torch.nn.Module):
        net.eval()  # 将模型设置为评估模式
    correct, total = 0.0, 0
    with torch.no_grad():
        for X, y in data_iter:
            correct += float((net(X).argmax(axis=1) == y).sum())
            total += y.numel()
    return correct / total


torch.manual_seed(1)
test_iter = data.DataLoader(
    data.TensorDataset(torch.randn(25, 6), torch.randint(0, 2, (25,))), batch_size=10)
net = nn.Sequential(nn.Linear(6, 2))
print(evaluate_accuracy(net, test_iter))
print(net.training)

import torch
from torch import nn

torch.manual_seed(0)
num_inputs = 20
X = torch.randn(16, num_inputs)
y = X.sum(1, keepdim=True) * 0.01 + 0.05


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    num_epochs, lr = 20, 0.003
    # 偏置参数没有衰减
    trainer = torch.optim.SGD([
        {"params": net[0].weight, 'weight_decay': wd},
        {"params": net[0].bias}], lr=lr)
    for epoch in range(num_epochs):
        trainer.zero_grad()
        l = loss(net(X), y)
        l.mean().backward()
        trainer.step()
    print('w的L2范数：', net[0].weight.norm().item())
    print([g['weight_decay'] for g in trainer.param_groups])


train_concise(0)
train_concise(3)

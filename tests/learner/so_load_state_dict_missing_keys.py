import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


state = nn.Sequential(nn.Linear(3, 2)).state_dict()
print(list(state.keys()))
net = Net()
net.load_state_dict(state)

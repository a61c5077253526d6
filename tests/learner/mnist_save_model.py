import torch
import torch.nn as nn

torch.manual_seed(1)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 10))
save_model = True
if save_model:
    torch.save(model.state_dict(), "mnist_cnn.pt")

new_model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 10))
state = torch.load("mnist_cnn.pt")
print(sorted(state.keys()))
new_model.load_state_dict(state)
x = torch.randn(1, 1, 6, 6)
print(new_model(x).argmax().item() == model(x).argmax().item())

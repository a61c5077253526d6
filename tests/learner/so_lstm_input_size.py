import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTM(input_size=10, hidden_size=20, batch_first=True)
x = torch.randn(4, 5, 10)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
bad = torch.randn(4, 5, 7)
out, _ = lstm(bad)

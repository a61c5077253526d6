import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
print(rnn)
print(output.shape, hn.shape)
gru = nn.GRU(input_size=10, hidden_size=8, batch_first=True)
print(gru)
out, h = gru(torch.randn(3, 5, 10))
print(out.shape, h.shape)
lstm = nn.LSTM(4, 6, num_layers=1)
print(sum(p.numel() for p in lstm.parameters()))
print([n for n, _ in lstm.named_parameters()])

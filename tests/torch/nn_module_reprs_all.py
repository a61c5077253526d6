import torch
import torch.nn as nn
mods = [
    nn.Linear(3, 4), nn.Linear(3, 4, bias=False), nn.Conv2d(3, 8, 3), nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, bias=False),
    nn.Conv2d(4, 8, 3, groups=2, dilation=2, padding_mode='zeros'), nn.Conv1d(2, 4, 5, stride=2),
    nn.ConvTranspose2d(4, 2, 2, stride=2), nn.MaxPool2d(2), nn.MaxPool2d(3, stride=1, padding=1),
    nn.AvgPool2d(2), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(5), nn.MaxPool1d(2), nn.AvgPool1d(3),
    nn.AdaptiveAvgPool1d(4), nn.AdaptiveMaxPool1d(2), nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=0),
    nn.ReLU(), nn.ReLU(inplace=True), nn.Sigmoid(), nn.Tanh(), nn.Identity(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1),
    nn.Flatten(), nn.Flatten(0, 2), nn.Dropout(), nn.Dropout(0.2, inplace=True), nn.Dropout2d(0.3),
    nn.CrossEntropyLoss(), nn.NLLLoss(), nn.MSELoss(), nn.L1Loss(), nn.BCELoss(), nn.BCEWithLogitsLoss(),
    nn.SmoothL1Loss(), nn.HuberLoss(), nn.KLDivLoss(), nn.CosineSimilarity(),
    nn.Unflatten(1, (2, 5)), nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.ELU(), nn.ReLU6(), nn.SELU(), nn.CELU(),
    nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.LogSigmoid(), nn.Softsign(), nn.Tanhshrink(), nn.SiLU(),
    nn.Softplus(), nn.Softplus(beta=2, threshold=10), nn.Hardtanh(), nn.GELU(), nn.GELU(approximate='tanh'),
    nn.BatchNorm1d(4), nn.BatchNorm2d(8, momentum=None), nn.BatchNorm2d(8, affine=False, track_running_stats=False),
    nn.LayerNorm(5), nn.LayerNorm([2, 3], elementwise_affine=False), nn.GroupNorm(2, 4),
    nn.RNN(3, 5), nn.LSTM(3, 5, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True), nn.GRU(3, 5, bias=False),
    nn.Upsample(scale_factor=2), nn.Upsample(size=(4, 4), mode='bilinear'),
]
for m in mods:
    print(m)
    print([(n, tuple(p.shape)) for n, p in m.named_parameters()], [n for n, _ in m.named_buffers()])
print(nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 13 * 13, 10)))

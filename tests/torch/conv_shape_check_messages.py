# F.conv3d and F.conv_transpose{1,2,3}d check their arguments with ATen's check_shape_forward:
# the same checks in the same order, a few sizes printed differently for the transposed kind
import torch
import torch.nn.functional as F

x5 = torch.zeros(1, 2, 4, 4, 4)
cases = [
    ('conv3d groups not dividing', lambda: F.conv3d(x5, torch.zeros(3, 1, 3, 3, 3), groups=2)),
    ('conv_transpose3d groups not dividing', lambda: F.conv_transpose3d(x5, torch.zeros(3, 1, 3, 3, 3), groups=2)),
    ('conv3d too few out channels', lambda: F.conv3d(x5, torch.zeros(1, 2, 3, 3, 3), groups=2)),
    ('conv_transpose2d too few in channels', lambda: F.conv_transpose2d(torch.zeros(1, 2, 4, 4), torch.zeros(1, 2, 3, 3), groups=2)),
    ('conv3d groups 0', lambda: F.conv3d(x5, torch.zeros(2, 2, 3, 3, 3), groups=0)),
    ('conv_transpose3d groups 0', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), groups=0)),
    ('conv3d negative padding', lambda: F.conv3d(x5, torch.zeros(2, 2, 3, 3, 3), padding=-1)),
    ('conv_transpose3d negative padding', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), padding=-1)),
    ('conv_transpose3d negative output_padding', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), output_padding=-1)),
    ('conv3d stride 0', lambda: F.conv3d(x5, torch.zeros(2, 2, 3, 3, 3), stride=0)),
    ('conv_transpose3d stride 0', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), stride=0)),
    ('conv3d negative dilation', lambda: F.conv3d(x5, torch.zeros(2, 2, 3, 3, 3), dilation=-1)),
    ('conv_transpose3d negative dilation', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), dilation=-1)),
    ('conv3d input channels', lambda: F.conv3d(x5, torch.zeros(2, 3, 3, 3, 3))),
    ('conv_transpose3d input channels', lambda: F.conv_transpose3d(x5, torch.zeros(3, 2, 3, 3, 3))),
    ('conv3d bias size', lambda: F.conv3d(x5, torch.zeros(2, 2, 3, 3, 3), torch.zeros(3))),
    ('conv_transpose3d bias size', lambda: F.conv_transpose3d(x5, torch.zeros(2, 2, 3, 3, 3), torch.zeros(3))),
    ('conv_transpose1d bias size', lambda: F.conv_transpose1d(torch.zeros(1, 2, 4), torch.zeros(2, 2, 3), torch.zeros(3))),
]
for name, f in cases:
    try:
        f()
        print(name, 'ran')
    except RuntimeError as e:
        print(name, '->', e)
print(F.conv3d(x5, torch.ones(2, 2, 3, 3, 3)).shape)
print(F.conv_transpose3d(x5, torch.ones(2, 2, 3, 3, 3), output_padding=1, stride=2).shape)

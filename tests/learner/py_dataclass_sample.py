from dataclasses import dataclass
import torch


@dataclass
class Sample:
    image: torch.Tensor
    label: int


@dataclass(frozen=True)
class Shape:
    channels: int
    height: int
    width: int

    def numel(self):
        return self.channels * self.height * self.width


torch.manual_seed(0)
shape = Shape(1, 2, 2)
samples = [Sample(torch.rand(shape.channels, shape.height, shape.width), i % 2) for i in range(3)]
print(samples[0])
print(shape, shape.numel())
batch = torch.stack([s.image for s in samples])
labels = torch.tensor([s.label for s in samples])
print(batch.shape, labels)
try:
    shape.height = 28
except Exception as e:
    print(type(e).__name__, e)
print(samples[1] == samples[1])
samples[0] == samples[2]

from dataclasses import dataclass, field
import torch


@dataclass
class Config:
    lr: float = 1e-3
    epochs: int = 5
    hidden: list = field(default_factory=lambda: [64, 32])
    device: str = "cpu"


cfg = Config(epochs=3)
print(cfg)
print(cfg.lr * 10, cfg.hidden[-1])
layers = [torch.nn.Linear(a, b) for a, b in zip([10] + cfg.hidden, cfg.hidden)]
print(layers)
print(Config() == Config())

import os
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
ckpt_dir = "checkpoints"
if not os.path.exists(ckpt_dir):
    os.makedirs(ckpt_dir)
path = os.path.join(ckpt_dir, "epoch_1.pt")
torch.save({"epoch": 1, "model_state_dict": model.state_dict()}, path)
print(os.path.exists(path), os.path.isfile(path), os.path.isdir(ckpt_dir))
print(sorted(os.listdir(ckpt_dir)))
ckpt = torch.load(path)
model2 = nn.Linear(2, 2)
model2.load_state_dict(ckpt["model_state_dict"])
print(ckpt["epoch"], torch.equal(model.weight, model2.weight))
print(os.path.splitext(os.path.basename(path)))
torch.save(model.state_dict(), "no_such_dir/model.pt")

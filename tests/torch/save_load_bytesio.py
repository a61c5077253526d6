# torch.save / torch.load through an in-memory io.BytesIO, as checkpoint code round-trips a
# state_dict without touching the disk.
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
buf = io.BytesIO()
print(torch.save(model.state_dict(), buf), buf.seek(0), buf.tell())
sd = torch.load(buf)
print(type(sd).__name__, list(sd.keys()))
print(torch.equal(sd["weight"], model.weight), sd["weight"] is model.weight)

clone = nn.Linear(3, 2)
print(clone.load_state_dict(sd))
x = torch.tensor([[1.0, 2.0, 3.0]])
print(torch.equal(clone(x), model(x)))

# Without seek(0) the buffer is read from its end, as from a file read past its content.
buf2 = io.BytesIO()
torch.save({"step": 3, "losses": [0.5, 0.25], "w": torch.arange(4.0)}, buf2)
try:
    torch.load(buf2)
except EOFError as e:
    print("EOFError", repr(str(e)))
buf2.seek(0)
ckpt = torch.load(buf2, map_location="cpu")
print(ckpt)
buf2.seek(0)
again = torch.load(buf2)
print(again["w"] is ckpt["w"], torch.equal(again["w"], ckpt["w"]))
try:
    torch.load(io.BytesIO())
except EOFError as e:
    print("EOFError", repr(str(e)))

# Saving copies: changing the model afterwards leaves the buffer's checkpoint as it was.
before = model.weight.detach().clone()
buf3 = io.BytesIO()
torch.save(model.state_dict(), buf3)
with torch.no_grad():
    model.weight.fill_(1.0)
buf3.seek(0)
print(torch.equal(torch.load(buf3)["weight"], before), torch.equal(model.weight, before))


class Config(dict):
    pass


cfg = Config(lr=0.01, layers=[4, 2])
buf4 = io.BytesIO()
torch.save(cfg, buf4)
buf4.seek(0)
back = torch.load(buf4, weights_only=False)
print(type(back).__name__, back, back == cfg, back is cfg)

"""Records the corpus entries that real PyTorch raises on a CPU machine (tests/explain/corpus/cpu-*.txt).

Each case is a small learner-style script; it runs in a fresh `python` process (the one given
as argv[1], e.g. .venv-torch/bin/python) so the traceback is exactly what the learner would
paste. Run from the repository root:

    OMP_NUM_THREADS=1 .venv-torch/bin/python tests/explain/record_cpu.py $PWD/.venv-torch/bin/python [CASE...]

(naming cases records only those).

Nothing here is edited by hand afterwards: a corpus file is the header this script writes and
the process's own stderr.
"""
import os
import subprocess
import sys
import tempfile

PY = sys.argv[1] if len(sys.argv) > 1 else sys.executable
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

CASES = {
    # (family, script)
    "cpu-cross-entropy-target": ("assert-nll-target", """
import torch
import torch.nn.functional as F
logits = torch.randn(4, 5)
labels = torch.tensor([1, 2, 5, 0])
loss = F.cross_entropy(logits, labels)
"""),
    "cpu-cross-entropy-negative": ("assert-nll-target", """
import torch
import torch.nn as nn
criterion = nn.CrossEntropyLoss()
out = torch.randn(3, 4)
y = torch.tensor([0, -1, 2])
print(criterion(out, y))
"""),
    "cpu-nll-loss": ("assert-nll-target", """
import torch
import torch.nn.functional as F
logp = F.log_softmax(torch.randn(3, 4), dim=1)
loss = F.nll_loss(logp, torch.tensor([0, 4, 1]))
"""),
    "cpu-embedding": ("assert-embedding", """
import torch
import torch.nn as nn
vocab = {'the': 0, 'cat': 1, 'sat': 2}
emb = nn.Embedding(len(vocab), 8)
ids = torch.tensor([[0, 1, 3]])
vectors = emb(ids)
"""),
    "cpu-index-select": ("assert-index-select", """
import torch
table = torch.randn(5, 3)
rows = table.index_select(0, torch.tensor([1, 7]))
"""),
    "cpu-gather": ("assert-gather-scatter", """
import torch
probs = torch.randn(4, 3).softmax(dim=1)
picked = probs.gather(1, torch.tensor([[0], [2], [3], [1]]))
"""),
    "cpu-scatter": ("assert-gather-scatter", """
import torch
onehot = torch.zeros(3, 4)
onehot.scatter_(1, torch.tensor([[1], [4], [0]]), 1.0)
"""),
    "cpu-index": ("assert-index", """
import torch
x = torch.arange(5.)
print(x[7])
"""),
    "cpu-index-tensor": ("assert-index", """
import torch
x = torch.randn(4, 3)
rows = torch.tensor([0, 2, 4])
print(x[rows])
"""),
    "cpu-bce-input": ("assert-bce", """
import torch
import torch.nn.functional as F
scores = torch.tensor([0.3, 1.7, -0.2])
target = torch.tensor([0., 1., 0.])
loss = F.binary_cross_entropy(scores, target)
"""),
    "cpu-bce-target": ("assert-bce", """
import torch
import torch.nn as nn
loss_fn = nn.BCELoss()
p = torch.tensor([0.3, 0.7])
y = torch.tensor([0., 2.])
print(loss_fn(p, y))
"""),
    "cpu-multinomial-negative": ("assert-multinomial", """
import torch
weights = torch.tensor([0.5, -0.1, 0.6])
sample = torch.multinomial(weights, 2)
"""),
    "cpu-multinomial-zero": ("assert-multinomial", """
import torch
probs = torch.zeros(4)
sample = torch.multinomial(probs, 1)
"""),
    "cpu-no-driver": ("no-driver", """
import torch
x = torch.randn(10).cuda()
"""),
    "cpu-no-driver-device": ("no-driver", """
import torch
device = torch.device('cuda')
model = torch.nn.Linear(3, 2).to(device)
"""),
    "cpu-numpy-requires-grad": ("numpy-requires-grad", """
import torch
w = torch.randn(3, requires_grad=True)
arr = (w * 2).numpy()
"""),
    "cpu-inplace-leaf": ("inplace-leaf", """
import torch
w = torch.randn(3, requires_grad=True)
w += 1
"""),
    "cpu-inplace-version": ("inplace-version", """
import torch
x = torch.randn(4, 3, requires_grad=True)
h = torch.sigmoid(x)
h.mul_(2)
h.sum().backward()
"""),
    "cpu-inplace-version-relu": ("inplace-version", """
import torch
import torch.nn as nn
lin = nn.Linear(3, 3)
x = torch.randn(2, 3)
y = lin(x).relu()
y += 1
y.sum().backward()
"""),
    "cpu-backward-twice": ("backward-twice", """
import torch
x = torch.randn(3, requires_grad=True)
loss = (x.exp() * 2).sum()
loss.backward()
loss.backward()
"""),
    "cpu-grad-scalar": ("grad-scalar", """
import torch
x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward()
"""),
    "cpu-dtype-embedding-float": ("dtype-mismatch", """
import torch
import torch.nn as nn
emb = nn.Embedding(10, 4)
ids = torch.tensor([1., 2.])
emb(ids)
"""),
    "cpu-dtype-matmul": ("dtype-mismatch", """
import torch
a = torch.randn(2, 2)
b = torch.ones(2, 2, dtype=torch.float64)
c = a @ b
"""),
    "cpu-dtype-linear-double": ("dtype-mismatch", """
import torch
import torch.nn as nn
import numpy as np
model = nn.Linear(3, 2)
x = torch.from_numpy(np.ones((4, 3)))
out = model(x)
"""),
    "cpu-dtype-cross-entropy-float-target": ("dtype-mismatch", """
import torch
import torch.nn.functional as F
logits = torch.randn(3, 5)
labels = torch.tensor([1., 0., 4.])
loss = F.cross_entropy(logits, labels)
"""),
    "cpu-dtype-inplace-cast": ("dtype-mismatch", """
import torch
counts = torch.zeros(3, dtype=torch.long)
counts += 0.5
"""),
    "cpu-dtype-conv-double": ("dtype-mismatch", """
import torch
import torch.nn as nn
conv = nn.Conv2d(1, 4, 3)
x = torch.randn(2, 1, 8, 8, dtype=torch.float64)
conv(x)
"""),
    "cpu-dtype-index-float": ("dtype-mismatch", """
import torch
x = torch.randn(5)
i = torch.tensor([0., 2.])
x[i]
"""),
    "cpu-shape-linear": ("shape-matmul", """
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
images = torch.randn(64, 1, 28, 28)
out = model(images.view(64, -1)[:, :100])
"""),
    "cpu-shape-matmul": ("shape-matmul", """
import torch
x = torch.randn(8, 3)
w = torch.randn(2, 3)
y = x @ w
"""),
    "cpu-shape-broadcast": ("shape-broadcast", """
import torch
pred = torch.randn(10)
target = torch.randn(5)
err = pred - target
"""),
    "cpu-shape-broadcast-2d": ("shape-broadcast", """
import torch
a = torch.randn(4, 3)
b = torch.randn(4, 2)
print(a * b)
"""),
    "cpu-shape-batch": ("batch-size-mismatch", """
import torch
import torch.nn.functional as F
logits = torch.randn(10, 5)
labels = torch.randint(0, 5, (8,))
loss = F.cross_entropy(logits, labels)
"""),
    "cpu-shape-view": ("shape-view", """
import torch
x = torch.randn(10)
y = x.view(3, 3)
"""),
    "cpu-shape-conv-channels": ("shape-conv", """
import torch
import torch.nn as nn
conv = nn.Conv2d(3, 16, 3)
gray = torch.randn(8, 1, 28, 28)
features = conv(gray)
"""),
    "cpu-shape-cat": ("shape-broadcast", """
import torch
a = torch.randn(2, 3)
b = torch.randn(2, 2)
c = torch.cat([a, b], dim=0)
"""),
    "cpu-map-location": ("map-location", None),
    "cpu-state-dict-missing": ("state-dict-keys", """
import torch
import torch.nn as nn
saved = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).state_dict()
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2), nn.Softmax(dim=1))
model.load_state_dict({'model.' + k: v for k, v in saved.items()})
"""),
    "cpu-state-dict-size": ("state-dict-keys", """
import torch
import torch.nn as nn
saved = nn.Linear(16, 10).state_dict()
head = nn.Linear(16, 5)
head.load_state_dict(saved)
"""),
    "cpu-no-grad-fn": ("no-grad-fn", """
import torch
import torch.nn as nn
model = nn.Linear(3, 1)
x = torch.randn(4, 3)
with torch.no_grad():
    loss = model(x).pow(2).mean()
loss.backward()
"""),
    "cpu-no-grad-fn-detach": ("no-grad-fn", """
import torch
w = torch.randn(3, requires_grad=True)
pred = (w * 2).detach()
loss = (pred - 1).abs().sum()
loss.backward()
"""),
    "cpu-multi-target": ("batch-size-mismatch", """
import torch
import torch.nn.functional as F
logits = torch.randn(4, 3)
labels = torch.tensor([[0], [2], [1], [1]])
loss = F.cross_entropy(logits, labels)
"""),
    "cpu-item-many": ("scalar-conversion", """
import torch
losses = torch.randn(3)
print(losses.item())
"""),
    "cpu-bool-ambiguous": ("scalar-conversion", """
import torch
x = torch.randn(3)
if x > 0:
    print('positive')
"""),
    "cpu-meta-mismatch": ("device-mismatch", """
import torch
a = torch.randn(10, device='meta')
b = a + torch.randn(10)
"""),
    "cpu-anomaly-nan": ("detect-anomaly", """
import torch
with torch.autograd.detect_anomaly():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = torch.sqrt(x) * 0
    z = torch.log(y + 0).sum()
    z.backward()
"""),
}

MAP_LOCATION_SAVE = """
import torch, torch.serialization as s
# tag the storage as cuda:0, as a checkpoint saved on a GPU is tagged
s.register_package(1, lambda obj: 'cuda:0', lambda obj, loc: None)
torch.save({'weight': torch.randn(2, 2)}, 'model.pt')
"""
MAP_LOCATION_LOAD = """
import torch
state = torch.load('model.pt')
"""


def run(script, cwd, name):
    path = os.path.join(cwd, name + ".py")
    with open(path, "w") as f:
        f.write(script.lstrip("\n"))
    env = dict(os.environ, OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="")
    p = subprocess.run([PY, path], cwd=cwd, capture_output=True, text=True, env=env)
    return p.returncode, p.stderr


def main():
    os.makedirs(OUT, exist_ok=True)
    version = subprocess.run([PY, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="explain-corpus-") as cwd:
        only = sys.argv[2:]
        for name, (family, script) in CASES.items():
            if only and name not in only:
                continue
            if script is None:
                run(MAP_LOCATION_SAVE, cwd, "save_on_gpu")
                code, err = run(MAP_LOCATION_LOAD, cwd, "train")
            else:
                code, err = run(script, cwd, "train")
            if code == 0 or "Traceback" not in err:
                print(f"{name}: no error raised (exit {code})", file=sys.stderr)
                continue
            err = err.replace(cwd, "/home/learner/project")
            with open(os.path.join(OUT, name + ".txt"), "w") as f:
                f.write(f"# family: {family}\n")
                f.write(f"# source: real PyTorch {version} on a CPU machine "
                        f"(tests/explain/record_cpu.py, case {name})\n")
                f.write("---\n")
                f.write(err)
            print(name, "->", err.strip().splitlines()[-1][:100])


main()

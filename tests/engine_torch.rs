//! Small scripts through the interpreter with the torch bindings installed: stdout and
//! exceptions as pytorch-facts.md records them.

use cudatutor::engine::{Runtime, RuntimeConfig};
use cudatutor::script::{Interpreter, Limits, ScriptError};

#[path = "support/dev_script.rs"]
mod dev_script;
use dev_script::dev_script;

/// What a run left behind (plain data, so it can cross the thread boundary).
#[allow(dead_code)]
struct Outcome {
    stdout: String,
    error: Option<Err>,
    failure: Option<cudatutor::engine::CudaFailure>,
    device_log: Vec<String>,
    events: Vec<cudatutor::engine::OpEvent>,
}

#[derive(Debug)]
#[allow(dead_code)]
struct Err {
    type_name: String,
    message: String,
    line: Option<u32>,
    traceback: String,
}

/// Scripts run on a thread with a large stack (the interpreter recurses; debug frames are big).
fn run_outcome(src: &str, cfg: RuntimeConfig) -> Outcome {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let rt = Runtime::new(cfg);
            let mut it = Interpreter::new(Limits::default());
            cudatutor::torch::install(&mut it, rt.clone());
            let r = it.run_main(&src, "exercise.py");
            let error = r.err().map(|e: ScriptError| Err {
                type_name: e.type_name,
                message: e.message,
                line: e.line,
                traceback: e.traceback,
            });
            Outcome {
                stdout: it.take_stdout(),
                error,
                failure: rt.cuda_failure(),
                device_log: rt.device_log(),
                events: rt.events(),
            }
        })
        .unwrap()
        .join()
        .unwrap()
}

fn run_with(src: &str, cfg: RuntimeConfig) -> (String, Option<Err>, Outcome) {
    let mut o = run_outcome(src, cfg);
    let e = o.error.take();
    (o.stdout.clone(), e, o)
}

fn run(src: &str) -> (String, Option<Err>) {
    let (o, e, _) = run_with(src, RuntimeConfig::default());
    (o, e)
}

fn out(src: &str) -> String {
    let (o, e) = run(src);
    if let Some(e) = e {
        panic!("script failed: {}\nstdout so far:\n{o}", e.traceback);
    }
    o
}

fn err(src: &str) -> (String, String, Option<u32>) {
    let (_, e) = run(src);
    let e = e.expect("script should fail");
    (e.type_name, e.message, e.line)
}

#[test]
fn values_and_printing() {
    let o = out(r#"
import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0,2.0,3.0],[1.0,0.0,-1.0]])
print(F.cross_entropy(logits, torch.tensor([2,0])).item())
print(F.cross_entropy(logits, torch.tensor([2,0]), reduction='none').tolist())
print(F.cross_entropy(logits, torch.tensor([2,0]), reduction='sum').item())
print(F.softmax(torch.tensor([1.,2.,3.]), dim=0).tolist())
print(F.log_softmax(torch.tensor([1.,2.,3.]), dim=0).tolist())
print(torch.tensor([[1.,5.,2.],[7.,0.,1.]]).argmax(dim=1).tolist())
print(torch.tensor([[1.,2.],[3.,4.]]).sum(dim=1).tolist())
print((torch.tensor([1.0])/0).item())
print(int(torch.randint(0,6,(100000,)).max()))
print(torch.randn(10).element_size(), torch.randn(10).nbytes)
print(torch.device('cuda') == torch.device('cuda:0'))
print(str(torch.device('cuda')), repr(torch.device('cuda', 0)))
print(torch.randn(10,5).shape, torch.randn(10,5).size(1))
print(torch.tensor([1.0, 2.5]))
print(torch.tensor([1, 2]))
print(torch.tensor([[1.,2.],[3.,4.]]))
print(torch.arange(2000.))
print(torch.tensor([1., 2.], device='cuda'))
"#);
    assert_eq!(
        o,
        "0.40760594606399536\n[0.40760594606399536, 0.40760594606399536]\n0.8152118921279907\n\
[0.09003057330846786, 0.2447284758090973, 0.6652409434318542]\n\
[-2.4076058864593506, -1.4076058864593506, -0.40760594606399536]\n[1, 0]\n[3.0, 7.0]\ninf\n5\n4 40\nFalse\n\
cuda device(type='cuda', index=0)\ntorch.Size([10, 5]) 5\ntensor([1.0000, 2.5000])\ntensor([1, 2])\n\
tensor([[1., 2.],\n        [3., 4.]])\n\
tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03])\n\
tensor([1., 2.], device='cuda:0')\n"
    );
}

#[test]
fn host_errors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "import torch\nimport torch.nn.functional as F\nt = torch.tensor([0,1,2,3,4,5,0,1,2,3])\nF.cross_entropy(torch.randn(10,5), t)",
            "IndexError",
            "Target 5 is out of bounds.",
        ),
        (
            "import torch\nimport torch.nn.functional as F\nF.nll_loss(torch.randn(3,4), torch.tensor([0,4,1]))",
            "IndexError",
            "Target 4 is out of bounds.",
        ),
        (
            "import torch\nimport torch.nn.functional as F\nF.cross_entropy(torch.randn(10,5), torch.randint(0,5,(8,)))",
            "ValueError",
            "Expected input batch_size (10) to match target batch_size (8).",
        ),
        (
            "import torch\nimport torch.nn.functional as F\nF.cross_entropy(torch.randn(10,5), torch.randn(10))",
            "RuntimeError",
            "expected target dtype to be Long or Byte, but got Float",
        ),
        (
            "import torch\nimport torch.nn as nn\nnn.Linear(784,256)(torch.randn(64,100))",
            "RuntimeError",
            "addmm: mat1 and mat2 shapes cannot be multiplied (64x100 and 784x256)",
        ),
        (
            "import torch\ntorch.randn(64,100) @ torch.randn(784,256)",
            "RuntimeError",
            "mm: mat1 and mat2 shapes cannot be multiplied (64x100 and 784x256)",
        ),
        (
            "import torch\ntorch.randn(10) + torch.randn(5)",
            "RuntimeError",
            "The size of tensor a (10) must match the size of tensor b (5) at non-singleton dimension 0",
        ),
        (
            "import torch\ntorch.randn(5).index_select(0, torch.tensor([7]))",
            "IndexError",
            "index out of range in self",
        ),
        (
            "import torch\nimport torch.nn as nn\nnn.Embedding(10,3)(torch.tensor([10]))",
            "IndexError",
            "index out of range in self",
        ),
        (
            "import torch\ntorch.randn(5)[7]",
            "IndexError",
            "index 7 is out of bounds for dimension 0 with size 5",
        ),
        // an index tensor's bad value: reading names which index tensor held it (IndexKernel),
        // writing names the dim it indexes (PyTorch 2.15, measured)
        (
            "import torch\ntorch.zeros(5, 4)[:, torch.tensor([4])]",
            "IndexError",
            "index 4 is out of bounds for dimension 0 with size 4",
        ),
        (
            "import torch\ntorch.zeros(2, 3, 4)[:, :, torch.tensor([-5])]",
            "IndexError",
            "index -5 is out of bounds for dimension 0 with size 4",
        ),
        (
            "import torch\ntorch.zeros(5, 4)[torch.tensor([0]), torch.tensor([4])]",
            "IndexError",
            "index 4 is out of bounds for dimension 1 with size 4",
        ),
        (
            "import torch\nx = torch.zeros(5, 4)\nx[:, torch.tensor([4])] = 1.0",
            "IndexError",
            "index 4 is out of bounds for dimension 1 with size 4",
        ),
        // several bad values: the first element's, its index tensors in order
        (
            "import torch\ntorch.zeros(5, 4)[torch.tensor([0, 9]), torch.tensor([7, 1])]",
            "IndexError",
            "index 7 is out of bounds for dimension 1 with size 4",
        ),
        (
            "import torch\ntorch.zeros(5, 4)[torch.tensor([9, 0]), torch.tensor([1, 7])]",
            "IndexError",
            "index 9 is out of bounds for dimension 0 with size 5",
        ),
        (
            "import torch\nx = torch.zeros(5, 4)\nx[torch.tensor([0, 9]), torch.tensor([7, 1])] = 1.0",
            "IndexError",
            "index 7 is out of bounds for dimension 1 with size 4",
        ),
        (
            "import torch\ntorch.randn(3, requires_grad=True).numpy()",
            "RuntimeError",
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        ),
        (
            "import torch\ntorch.randn(3).cuda().numpy()",
            "TypeError",
            "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
        ),
        (
            "import torch\ntorch.randn(3).item()",
            "RuntimeError",
            "a Tensor with 3 elements cannot be converted to Scalar",
        ),
        (
            "import torch\nbool(torch.randn(3))",
            "RuntimeError",
            "Boolean value of Tensor with more than one value is ambiguous",
        ),
        (
            "import torch\ntorch.randn(10).view(3,3)",
            "RuntimeError",
            "shape '[3, 3]' is invalid for input of size 10",
        ),
        (
            "import torch\ntorch.randn(2,2) @ torch.ones(2,2,dtype=torch.float64)",
            "RuntimeError",
            "expected m1 and m2 to have the same dtype, but got: float != double",
        ),
        (
            "import torch\ntorch.device('cuda:x')",
            "RuntimeError",
            "Invalid device string: 'cuda:x'",
        ),
        (
            "import torch\ntorch.randn(10, device='meta') + torch.randn(10)",
            "RuntimeError",
            "Tensor on device cpu is not on the expected device meta!",
        ),
        (
            "import torch\ntorch.randn(3).cuda() + torch.randn(3)",
            "RuntimeError",
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
        ),
        (
            "import torch\nimport torch.nn as nn\nm = nn.Linear(3, 2).cuda()\nm(torch.randn(4, 3))",
            "RuntimeError",
            // PyTorch 2.15's per-argument wording (aten/src/ATen/core/adaption.cpp)
            "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)",
        ),
    ];
    for (src, ty, msg) in cases {
        let (t, m, _) = err(src);
        assert_eq!((t.as_str(), m.as_str()), (*ty, *msg), "script:\n{src}");
    }
    let (t, m, _) = err("import torch\ntorch.randn(2).to('gpu')");
    assert_eq!(t, "RuntimeError");
    assert!(m.starts_with("Expected one of cpu, cuda, ipu, xpu"), "{m}");
}

#[test]
fn deferred_assert_reported_at_item_and_sticky() {
    // line 3 launches the multiply and add kernels before the bug, so lines 6 and 7 launch
    // kernels already loaded, which do not look at the context: the error waits for item()
    let src = "import torch
import torch.nn.functional as F
x = torch.randn(10, 5, device='cuda') * 2 + 1
labels = torch.tensor([0, 1, 2, 3, 4, 5, 0, 1, 2, 3], device='cuda')
loss = F.cross_entropy(x, labels)
y = loss * 2
z = x + 1
print('before item')
v = loss.item()
";
    let (o, e, rt) = run_with(src, RuntimeConfig::default());
    let e = e.expect("should raise");
    assert_eq!(o, "before item\n");
    // PyTorch 2.8+: torch.AcceleratorError, a RuntimeError subclass
    assert_eq!(e.type_name, "AcceleratorError");
    assert_eq!(e.message, cudatutor::engine::error::CUDA_ASSERT_MESSAGE);
    assert_eq!(e.line, Some(9));
    let f = rt.failure.clone().unwrap();
    assert_eq!((f.origin_line, f.reported_line), (5, Some(9)));
    assert_eq!(rt.device_log.len(), 1);

    // launch blocking: reported at the origin line
    let (_, e, _) = run_with(
        src,
        RuntimeConfig {
            launch_blocking: true,
            ..Default::default()
        },
    );
    assert_eq!(e.unwrap().line, Some(5));
    // ... also from os.environ before the first CUDA call
    let src2 = format!("import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n{src}");
    let (_, e, _) = run_with(&src2, RuntimeConfig::default());
    assert_eq!(e.unwrap().line, Some(7));

    // sticky: catching it does not help
    let src3 = "import torch
import torch.nn.functional as F
x = torch.randn(4, 3, device='cuda')
loss = F.cross_entropy(x, torch.tensor([0, 1, 2, 3], device='cuda'))
try:
    loss.item()
except RuntimeError as e:
    print('caught')
y = torch.ones(2, device='cuda')
";
    let (o, e, _) = run_with(src3, RuntimeConfig::default());
    assert_eq!(o, "caught\n");
    let e = e.unwrap();
    assert_eq!(
        (
            e.line,
            e.message
                .starts_with("CUDA error: device-side assert triggered")
        ),
        (Some(9), true)
    );
}

#[test]
fn memory_counters_follow_refcounts() {
    // First tests/cuda/alloc_small.py, whose three lines PyTorch printed on a GPU
    // (tests/fixtures/cuda/alloc_small.json); then the allocator's 2 MiB blocks and its peaks.
    let o = out(concat!(
        include_str!("cuda/alloc_small.py"),
        "a = torch.zeros(3 * 1024 * 256, device='cuda')
b = torch.zeros(12 * 1024 * 256, device='cuda')
print(torch.cuda.memory_reserved() // (1024 * 1024))
b = None
print(torch.cuda.max_memory_allocated() // (1024 * 1024), torch.cuda.memory_allocated() // (1024 * 1024))
torch.cuda.reset_peak_memory_stats()
print(torch.cuda.max_memory_allocated() // (1024 * 1024))
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.get_device_name(0))
"
    ));
    assert_eq!(
        o,
        "512 2097152\n0 2097152\n0 0\n20\n15 3\n3\nTrue 1 Simulated H200 (modelled)\n"
    );
}

#[test]
fn oom_is_a_runtime_error() {
    let (o, e, _) = run_with(
        "import torch
try:
    x = torch.empty(2 * 1024 ** 3, device='cuda')
except torch.OutOfMemoryError as e:
    print('oom')
try:
    x = torch.empty(2 * 1024 ** 3, device='cuda')
except RuntimeError as e:
    print(str(e)[:46])
",
        RuntimeConfig {
            gpu_memory: 4 << 30,
            ..Default::default()
        },
    );
    assert!(e.is_none(), "{:?}", e);
    assert_eq!(o, "oom\nCUDA out of memory. Tried to allocate 8.00 GiB\n");
}

#[test]
fn modules_and_training_loop() {
    let o = out("import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
print(model)
print(len(list(model.parameters())), model[0].weight.shape, model[0].weight.device)
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ds = TensorDataset(torch.randn(100, 784), torch.randint(0, 10, (100,)))
dl = DataLoader(ds, batch_size=32, shuffle=True, pin_memory=True)
print(len(dl))
n = 0
for xb, yb in dl:
    xb, yb = xb.cuda(non_blocking=True), yb.cuda(non_blocking=True)
    loss = loss_fn(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    n += xb.shape[0]
print(n, loss.item() > 0, xb.is_cuda)
with torch.no_grad():
    out = model(torch.randn(2, 784, device='cuda'))
print(out.shape, out.requires_grad)
");
    assert_eq!(
        o,
        "Sequential(\n  (0): Linear(in_features=784, out_features=256, bias=True)\n  (1): ReLU()\n  (2): Linear(in_features=256, out_features=10, bias=True)\n)\n\
4 torch.Size([256, 784]) cuda:0\n4\n100 True True\ntorch.Size([2, 10]) False\n"
    );
}

#[test]
fn devices_and_data_parallel() {
    let (o, e, rt) = run_with(
        "import torch
import torch.nn as nn
print(torch.cuda.device_count())
a = torch.ones(2, device='cuda:0')
b = torch.ones(2, device='cuda:1')
try:
    a + b
except RuntimeError as e:
    print(e)
with torch.cuda.device(1):
    c = torch.zeros(3, device='cuda')
    print(c.device, torch.cuda.current_device())
print(torch.cuda.current_device())
print(c.device == torch.device('cuda'), c.device.type == 'cuda')
model = nn.DataParallel(nn.Linear(4, 2).cuda())
out = model(torch.randn(8, 4, device='cuda'))
print(out.shape, out.device)
",
        RuntimeConfig {
            gpus: 2,
            ..Default::default()
        },
    );
    assert!(e.is_none(), "{}", e.unwrap().traceback);
    assert_eq!(
        o,
        "2\nExpected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!\ncuda:1 1\n0\nFalse True\ntorch.Size([8, 2]) cuda:0\n"
    );
    assert!(
        rt.events
            .iter()
            .any(|e| e.device == Some(1) && e.op == "linear")
    );
}

#[test]
fn tensor_api() {
    let o = out("import torch
x = torch.arange(12).view(3, 4)
print(x[1], x[:, 1].tolist(), x[x > 9].tolist(), x[[0, 2]].shape)
x[0, 0] = 100
x[x > 10] = 0
print(x.tolist())
y = x.float()
y += 1
print(y.dtype, y.sum().item(), y.mean(dim=0).shape)
v, i = y.max(dim=1)
print(v.tolist(), i.tolist(), y.max(1).indices.tolist())
print(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.int32))
print(torch.zeros(2, 3).numpy(), torch.tensor([1., 2., 3.]).numpy())
print(len(x), [t.shape for t in x][0], x.T.shape, x.t().is_contiguous())
print(f'{torch.tensor(0.123456):.3f}', float(torch.tensor(2.5)), int(torch.tensor(7)))
print(2 * torch.ones(2), 1 - torch.ones(2), torch.ones(2) / 2)
print(torch.ones(2, requires_grad=True) * 2)
print(torch.tensor(3.), torch.tensor([]), torch.zeros(0, dtype=torch.int64))
print(torch.cat([torch.ones(2), torch.zeros(1)]), torch.stack([torch.ones(2), torch.zeros(2)]).shape)
print(torch.where(torch.tensor([1., -1.]) > 0, 1.0, 0.0))
");
    assert_eq!(
        o,
        "tensor([4, 5, 6, 7]) [1, 5, 9] [10, 11] torch.Size([2, 4])\n\
[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 0]]\n\
torch.float32 67.0 torch.Size([4])\n\
[4.0, 8.0, 11.0] [3, 3, 2] [3, 3, 2]\n\
tensor([ True, False]) tensor([1, 2], dtype=torch.int32)\n\
[[0. 0. 0.]\n [0. 0. 0.]] [1. 2. 3.]\n\
3 torch.Size([4]) torch.Size([4, 3]) False\n\
0.123 2.5 7\n\
tensor([2., 2.]) tensor([0., 0.]) tensor([0.5000, 0.5000])\n\
tensor([2., 2.], grad_fn=<MulBackward0>)\n\
tensor(3.) tensor([]) tensor([], dtype=torch.int64)\n\
tensor([1., 1., 0.]) torch.Size([2, 2])\n\
tensor([1., 0.])\n"
    );
}

#[test]
fn no_gpu_and_misc_api() {
    let (o, e, _) = run_with(
        "import torch\nprint(torch.cuda.is_available(), torch.cuda.device_count())\nx = torch.randn(10).cuda()\n",
        RuntimeConfig {
            gpus: 0,
            ..Default::default()
        },
    );
    assert_eq!(o, "False 0\n");
    let e = e.unwrap();
    assert_eq!((e.type_name.as_str(), e.line), ("RuntimeError", Some(3)));
    assert_eq!(e.message, cudatutor::engine::runtime::NO_DRIVER_MESSAGE);
    let o = out("import torch
x = torch.ones(3, device='cuda')
st = torch.cuda.memory_stats()
print(st['allocated_bytes.all.current'], st['reserved_bytes.all.current'], st['num_ooms'])
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape)
print(torch.cuda.get_device_properties(0).total_memory // 2**30)
torch.backends.cudnn.benchmark = True
print(torch.backends.cudnn.benchmark)
");
    assert_eq!(
        o,
        "512 2097152 0\ntensor([1., 2.]) torch.Size([2, 3])\n139\nTrue\n"
    );
}

#[test]
fn odd_calls_raise_python_errors_never_panic() {
    let src = r#"import torch
import torch.nn
import torch.utils.data
x = torch.randn(3, 3)
ok = 0
try:
    _ = torch.zeros('a')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.zeros(-1)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.ones(2, 3, dtype='x')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.tensor([[1], [1, 2]])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.tensor('s')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.tensor([])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.tensor([[]])
    ok += 1
except Exception as e:
    pass
try:
    _ = x.view()
    ok += 1
except Exception as e:
    pass
try:
    _ = x[1.5]
    ok += 1
except Exception as e:
    pass
try:
    _ = x['a']
    ok += 1
except Exception as e:
    pass
try:
    _ = x[None, ..., None]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[..., ...]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[[True, False, True]]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[[0, 5]]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[:, 9]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[::0]
    ok += 1
except Exception as e:
    pass
try:
    _ = x[::-1]
    ok += 1
except Exception as e:
    pass
try:
    _ = x.unsqueeze(9)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.squeeze(9)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.permute(0)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.transpose(0, 5)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.sum(dim=9)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.sum(dim=(0, 0))
    ok += 1
except Exception as e:
    pass
try:
    _ = x.max(dim=5)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.to('cuda:7')
    ok += 1
except Exception as e:
    pass
try:
    _ = x.to(5)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.to(torch.float16)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.cuda(3)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.size(5)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.reshape(-1, -1)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.expand(1)
    ok += 1
except Exception as e:
    pass
try:
    _ = x @ x
    ok += 1
except Exception as e:
    pass
try:
    _ = x @ 2
    ok += 1
except Exception as e:
    pass
try:
    _ = 2 @ x
    ok += 1
except Exception as e:
    pass
try:
    _ = x ** -1
    ok += 1
except Exception as e:
    pass
try:
    _ = x ** x
    ok += 1
except Exception as e:
    pass
try:
    _ = -x
    ok += 1
except Exception as e:
    pass
try:
    _ = ~x
    ok += 1
except Exception as e:
    pass
try:
    _ = x.int() ** -1
    ok += 1
except Exception as e:
    pass
try:
    _ = x // 0
    ok += 1
except Exception as e:
    pass
try:
    _ = x.long() // 0
    ok += 1
except Exception as e:
    pass
try:
    _ = x.long() % 0
    ok += 1
except Exception as e:
    pass
try:
    _ = x & x
    ok += 1
except Exception as e:
    pass
try:
    _ = x.bool() & x.bool()
    ok += 1
except Exception as e:
    pass
try:
    _ = x < 'a'
    ok += 1
except Exception as e:
    pass
try:
    _ = x == None
    ok += 1
except Exception as e:
    pass
try:
    _ = len(torch.tensor(1.))
    ok += 1
except Exception as e:
    pass
try:
    _ = list(torch.tensor(1.))
    ok += 1
except Exception as e:
    pass
try:
    _ = bool(torch.tensor([]))
    ok += 1
except Exception as e:
    pass
try:
    _ = int(torch.tensor([1., 2.]))
    ok += 1
except Exception as e:
    pass
try:
    _ = float(torch.tensor(float('nan')))
    ok += 1
except Exception as e:
    pass
try:
    _ = int(torch.tensor(float('nan')))
    ok += 1
except Exception as e:
    pass
try:
    _ = f'{x:.2f}'
    ok += 1
except Exception as e:
    pass
try:
    _ = f'{torch.tensor(1.5):>8.2f}'
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cat([x, 'a'])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cat([])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.stack([x, x.t()])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.where(x)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.where(x > 0, x, 'a')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.randint(5)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.randint(0, 5)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.arange()
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.arange(0, 10, 0)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.linspace(0, 1, -3)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.device('cuda', 'x')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.device(None)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.device('cuda:1', 0)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cuda.set_device(9)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cuda.memory_allocated('cpu')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cuda.memory_allocated(torch.device('cuda:3'))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.cuda.device(9).__enter__
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.Linear(3, 2)(x.long())
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.Linear(3, 2)(torch.randn(3))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.Linear(0, 2)(torch.randn(1, 0))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.Embedding(3, 2)(torch.tensor([[1.5]]))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.cross_entropy(x, x)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.cross_entropy(torch.randn(3), torch.tensor(1))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.cross_entropy(torch.randn(2, 3, 4), torch.zeros(2, 4).long())
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.softmax(torch.tensor(1.))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.one_hot(torch.tensor([-1]))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.functional.one_hot(torch.tensor([1.5]))
    ok += 1
except Exception as e:
    pass
try:
    _ = x.numpy()[9]
    ok += 1
except Exception as e:
    pass
try:
    _ = x.numpy()[0][0]
    ok += 1
except Exception as e:
    pass
try:
    _ = x.tolist()[0]
    ok += 1
except Exception as e:
    pass
try:
    _ = x.index_select(0, torch.tensor([[0]]))
    ok += 1
except Exception as e:
    pass
try:
    _ = x.gather(1, torch.tensor([[9]]))
    ok += 1
except Exception as e:
    pass
try:
    _ = x.masked_fill(x, 1)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.fill_('a')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.utils.data.DataLoader([1, 2, 3], batch_size=2)
    ok += 1
except Exception as e:
    pass
try:
    _ = list(torch.utils.data.DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.DataParallel(torch.nn.Linear(3, 2))(x)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.nn.Sequential()(x)
    ok += 1
except Exception as e:
    pass
try:
    _ = repr(torch.nn.Sequential(torch.nn.Sequential(torch.nn.ReLU())))
    ok += 1
except Exception as e:
    pass
try:
    _ = x.requires_grad_(True)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.long().requires_grad_()
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.zeros(2).backward()
    ok += 1
except Exception as e:
    pass
try:
    _ = x.data
    ok += 1
except Exception as e:
    pass
try:
    _ = x.grad_fn
    ok += 1
except Exception as e:
    pass
try:
    _ = x.T.T
    ok += 1
except Exception as e:
    pass
try:
    _ = x.mT
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.Size([1, 'a'])
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.Size([2, 3])[1:]
    ok += 1
except Exception as e:
    pass
try:
    _ = hash(torch.Size([2]))
    ok += 1
except Exception as e:
    pass
try:
    _ = {torch.float32: 1}[torch.float32]
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.float32 == torch.int64
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 40, device='cuda')
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 62)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.zeros(2 ** 30, 2 ** 30)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.randn(2 ** 25).sum().item()
    ok += 1
except Exception as e:
    pass
try:
    _ = x.new_zeros(2)
    ok += 1
except Exception as e:
    pass
try:
    _ = x.unknown_method()
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.unknown_function()
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 40).nbytes
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 33, 1) + torch.empty(1, 2 ** 33)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.ones(2).expand(2 ** 40, 2 ** 40)
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 39).sum()
    ok += 1
except Exception as e:
    pass
try:
    _ = torch.empty(2 ** 30, device='meta').nbytes
    ok += 1
except Exception as e:
    pass
print('survived', ok)
"#;
    let (o, e, _) = run_with(
        src,
        RuntimeConfig {
            gpus: 2,
            ..Default::default()
        },
    );
    assert!(e.is_none(), "{}", e.unwrap().traceback);
    assert!(o.starts_with("survived "), "{o}");
}

/// Dev helper: `CUDATUTOR_SCRIPT=file.py cargo test --test engine_torch run_file -- --ignored --nocapture`.
#[test]
#[ignore]
fn run_file() {
    let Some(src) = dev_script() else { return };
    let gpus = std::env::var("CUDATUTOR_GPUS")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(1);
    let o = run_outcome(
        &src,
        RuntimeConfig {
            gpus,
            ..Default::default()
        },
    );
    print!("{}", o.stdout);
    if let Some(e) = &o.error {
        eprint!("{}", e.traceback);
    }
    for l in &o.device_log {
        eprintln!("{l}");
    }
    if let Some(f) = &o.failure {
        eprintln!(
            "origin line {} reported at {:?}",
            f.origin_line, f.reported_line
        );
    }
    for e in &o.events {
        eprintln!(
            "{:>3} {:<14} {:<6} {:?} host {:>8.1}..{:>8.1} dev {:?}..{:?} {} {}/{}",
            e.line,
            e.op,
            e.kind,
            e.device,
            e.host_us,
            e.host_end_us,
            e.device_start_us,
            e.device_end_us,
            e.status,
            e.allocated,
            e.reserved
        );
    }
}

/// Python ints beyond int64 cannot cross into torch: PyTorch's `THPUtils_unpackLong` raises
/// `RuntimeError: Overflow when unpacking long`; int64's own bounds still pass, and big ints
/// that come back within range (2**64 // 2**10) are plain ints again.
#[test]
fn big_ints_crossing_into_torch() {
    for expr in [
        "torch.tensor([2**64])",
        "torch.tensor([1, 2**63])",
        "torch.tensor(-2**63 - 1)",
        "t + 2**64",
        "2**70 * t",
        "t < 2**64",
        "torch.add(t, 2**64)",
        "t[2**64]",
        "torch.zeros(2**64)",
        "t.view(2**64)",
        "t.sum(dim=2**64)",
        "torch.full((2,), 2**64)",
        "t.fill_(2**64)",
    ] {
        let src = format!("import torch\nt = torch.zeros(3)\n{expr}\n");
        let (ty, msg, line) = err(&src);
        assert_eq!(
            (ty.as_str(), msg.as_str(), line),
            ("RuntimeError", "Overflow when unpacking long", Some(3)),
            "{expr}"
        );
    }
    let o = out("import torch\nt = torch.zeros(3)\n\
print(torch.tensor([2**63 - 1, -2**63]).tolist())\n\
print(t[0:2**64].shape, t[-2**70:].shape)\n\
print((t + 2**64 // 2**10).tolist())\n");
    assert_eq!(
        o,
        "[9223372036854775807, -9223372036854775808]\ntorch.Size([3]) torch.Size([3])\n\
[1.8014398509481984e+16, 1.8014398509481984e+16, 1.8014398509481984e+16]\n"
    );
}

/// lerp/addcmul/addcdiv and the optimisers built on them give the same bits on the simulated
/// GPU as on the CPU (the GPU backend runs the host kernel), with the same autograd nodes,
/// and the optimisers' state is keyed by the parameter tensors.
#[test]
fn ternary_ops_and_optimisers_on_the_gpu_match_the_cpu() {
    let o = out(r#"
import torch
def run(dev):
    a = torch.tensor([0.0, 1.0, -2.0, 3.3, 100.0, 0.25, -7.5, 1e-3] * 5, device=dev, requires_grad=True)
    b = torch.tensor([1.0, 3.0, 2.0, -1.1, 0.001, 4.5, 0.5, -2.0] * 5, device=dev, requires_grad=True)
    w = torch.linspace(-0.5, 1.5, 40, device=dev, requires_grad=True)
    ys = [torch.lerp(a, b, 0.3), torch.lerp(a, b, 0.7), torch.lerp(a, b, w),
          torch.addcmul(a, b, w, value=0.1), torch.addcdiv(a, b, w + 2, value=-0.01)]
    names = [y.grad_fn.name() for y in ys]
    sum(y.sum() for y in ys).backward()
    vals = [y.detach().cpu().tolist() for y in ys] + [t.grad.cpu().tolist() for t in (a, b, w)]
    p = torch.tensor([1.5, -0.7, 0.3, 2.0], device=dev, requires_grad=True)
    for cls in [torch.optim.Adam, torch.optim.RMSprop, torch.optim.Adagrad, torch.optim.Adadelta]:
        opt = cls([p], lr=0.05)
        for _ in range(3):
            opt.zero_grad()
            ((p - 0.5) ** 2).sum().backward()
            opt.step()
        vals.append(p.detach().cpu().tolist())
        vals.append(sorted(opt.state[p].keys()))
    return names, vals
cn, cv = run('cpu')
gn, gv = run('cuda')
print(cn)
print(cn == gn, cv == gv)
"#);
    assert_eq!(
        o,
        "['LerpBackward0', 'LerpBackward0', 'LerpBackward1', 'AddcmulBackward0', 'AddcdivBackward0']\nTrue True\n"
    );
}

/// Odd calls of lerp/addcmul/addcdiv and the optimisers raise PyTorch's Python errors.
#[test]
fn ternary_ops_and_optimisers_refuse_odd_calls_with_pytorchs_errors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "torch.lerp(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64), 0.5)",
            "RuntimeError",
            "expected dtype float for `end` but got dtype double",
        ),
        (
            // PyTorch 2.15's dispatch refusals are NotImplementedError (measured)
            "torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)",
            "NotImplementedError",
            "\"lerp_kernel_scalar\" not implemented for 'Long'",
        ),
        (
            "torch.addcmul(torch.tensor([True]), torch.tensor([True]), torch.tensor([False]))",
            "NotImplementedError",
            "\"addcmul_cpu_out\" not implemented for 'Bool'",
        ),
        (
            "torch.tensor([1.0, 2.0]).lerp_(torch.ones(2, 2), 0.5)",
            "RuntimeError",
            "output with shape [2] doesn't match the broadcast shape [2, 2]",
        ),
        (
            "torch.tensor([1.0], requires_grad=True).addcdiv_(torch.ones(1), torch.ones(1))",
            "RuntimeError",
            "a leaf Variable that requires grad is being used in an in-place operation.",
        ),
        (
            "torch.optim.SGD([torch.tensor([1.0])], nesterov=True)",
            "ValueError",
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (
            "torch.optim.Adam([torch.tensor([1.0])], betas=(1.0, 0.9))",
            "ValueError",
            "Invalid beta parameter at index 0: 1.0",
        ),
        (
            "torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.tensor([1.0])]), factor=2)",
            "ValueError",
            "Factor should be < 1.0.",
        ),
    ];
    for (call, kind, msg) in cases {
        let (t, m, _) = err(&format!("import torch\n{call}\n"));
        assert_eq!((t.as_str(), m.as_str()), (*kind, *msg), "{call}");
    }
}

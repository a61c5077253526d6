//! Engine and torch fuzzing: random shapes (up to 10^12 elements), dtypes, devices and op
//! sequences straight into the Runtime, and torch scripts through the interpreter. No op may
//! panic or abort on a failed allocation; a CUDA tensor past the simulated card is PyTorch's
//! `torch.OutOfMemoryError`; a CPU tensor past the host-memory bound is PyTorch's
//! DefaultCPUAllocator failure; values that cudatutor does not keep are never shown as zeros;
//! and every CUDA byte is returned when the tensors are dropped.

#[path = "support/fuzz.rs"]
mod fuzz;
use std::time::{Duration, Instant};

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::interrupt::Interrupt;
use cudatutor::engine::{
    BinaryOp, DType, Device, ErrorKind, Operand, Runtime, RuntimeConfig, Tensor, TensorIndex,
    UnaryOp,
};
use cudatutor::run::{BackendChoice, RunOptions, run_script};
use cudatutor::script::{Interpreter, Limits};
use proptest::prelude::*;

const GIB: u64 = 1 << 30;

/// A torch script on a fresh runtime with `cfg`, on a 256 MiB-stack thread as the runner
/// uses; returns stdout and the final `Type: message` (None when it ran cleanly).
fn torch_run(src: &str, mut cfg: RuntimeConfig) -> (String, Option<String>) {
    let src = src.to_string();
    // As a real run: the interpreter's 10 s limit also stops long kernels (run/session.rs).
    cfg.interrupt.deadline = Some((
        Instant::now() + Duration::from_secs(10),
        Duration::from_secs(10),
    ));
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let rt = Runtime::new(cfg);
            let mut it = Interpreter::new(Limits {
                max_steps: 2_000_000,
                max_wall: Duration::from_secs(10),
                cancel: None,
            });
            cudatutor::torch::install(&mut it, rt.clone());
            let r = it.run_main(&src, "exercise.py");
            let out = it.take_stdout();
            let err = r.err().map(|e| {
                if e.message.is_empty() {
                    e.type_name
                } else {
                    format!("{}: {}", e.type_name, e.message)
                }
            });
            it.clear_namespaces();
            // Everything freed: the card and the host budget are back to zero, but for the
            // cuBLAS workspaces a matrix product took (PyTorch keeps those for the process).
            assert_eq!(
                rt.memory_allocated(0),
                rt.blas_workspace_bytes(0),
                "CUDA bytes leaked"
            );
            assert_eq!(rt.host_memory().0, 0, "host bytes leaked");
            (out, err)
        })
        .unwrap()
        .join()
        .expect("the run panicked")
}

/// `torch_run`, which must end without an error: its stdout.
fn torch_out(src: &str, cfg: RuntimeConfig) -> String {
    let (out, err) = torch_run(src, cfg);
    assert_eq!(err, None, "stdout so far: {out}");
    out
}

fn cfg(host: u64) -> RuntimeConfig {
    RuntimeConfig {
        host_mem_limit: Some(host),
        ..RuntimeConfig::default()
    }
}

#[test]
fn hundred_million_element_cuda_tensor_works_like_pytorch() {
    let out = torch_out(
        "import torch\nx = torch.zeros(10**8, device='cuda')\nprint(x.shape, x.dtype, x.device)\nprint(torch.cuda.memory_allocated())\ny = x + 1\nprint(y.shape)\ndel x, y\nprint(torch.cuda.memory_allocated())\n",
        cfg(GIB),
    );
    assert_eq!(
        out,
        "torch.Size([100000000]) torch.float32 cuda:0\n400556032\ntorch.Size([100000000])\n0\n"
    );
}

#[test]
fn values_not_kept_are_never_shown_as_zeros() {
    // The sum of 10^8 ones is 10^8, not 0: past the host memory limit (256 MiB here, the
    // tensor takes 400 MB) cudatutor keeps no values, so anything read from such a tensor is
    // NotImplementedError, never a made-up number.
    for tail in [
        "print(y.sum())",
        "print(y.mean().item())",
        "print(y[0])",
        "print(y.max())",
        "print((y @ y))",
        "print(torch.nn.functional.softmax(y, 0)[0])",
    ] {
        let (out, err) = torch_run(
            &format!("import torch\ny = torch.zeros(10**8, device='cuda') + 1\n{tail}\n"),
            cfg(256 << 20),
        );
        let err = err.unwrap_or_else(|| panic!("{tail} printed {out:?}"));
        assert!(
            err.starts_with("NotImplementedError: cudatutor does not keep the values of tensors past its host memory limit"),
            "{tail}: {err}"
        );
    }
}

#[test]
fn a_tensor_past_the_card_is_pytorchs_oom() {
    let (_, err) = torch_run(
        "import torch\nx = torch.zeros(10**12, device='cuda')\n",
        cfg(GIB),
    );
    let err = err.unwrap();
    assert!(
        err.starts_with(
            "OutOfMemoryError: CUDA out of memory. Tried to allocate 3725.29 GiB. GPU 0 has a total capacity of 139.80 GiB of which 139.80 GiB is free. "
        ),
        "{err}"
    );
    // Many small ones fill the card too, and the OOM comes where PyTorch's would even
    // though the host bound (64 MiB here) is far below the card: past it values are not
    // kept, the memory is still counted.
    let out = torch_out(
        "import torch\nxs = []\ntry:\n    while True:\n        xs.append(torch.empty(1 << 28, device='cuda'))\nexcept torch.OutOfMemoryError as e:\n    print(len(xs), str(e)[:49])\n",
        cfg(64 << 20),
    );
    // PyTorch's format_size: exactly 1 GiB is still "1024.00 MiB".
    assert_eq!(
        out,
        "139 CUDA out of memory. Tried to allocate 1024.00 MiB\n"
    );
    let out = torch_out(
        "import torch\nxs = []\ntry:\n    while True:\n        xs.append(torch.ones(4 << 20, device='cuda'))\nexcept torch.OutOfMemoryError as e:\n    print(len(xs) > 1000, type(e).__name__)\n",
        cfg(64 << 20),
    );
    assert_eq!(out, "True OutOfMemoryError\n");
}

#[test]
fn cpu_tensors_past_the_host_bound_are_pytorchs_allocation_failure() {
    // One tensor larger than the bound.
    let (_, err) = torch_run("import torch\nx = torch.zeros(10**12)\n", cfg(GIB));
    assert_eq!(
        err.as_deref(),
        Some(
            "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 4000000000000 bytes. Error code 12 (Cannot allocate memory)"
        )
    );
    // Many that together pass it (each 4 MiB of float32 values, as in PyTorch; bound 64 MiB).
    let out = torch_out(
        "import torch\nxs = []\ntry:\n    for i in range(100):\n        xs.append(torch.ones(1 << 20))\nexcept RuntimeError as e:\n    print(len(xs), str(e))\n",
        cfg(64 << 20),
    );
    assert_eq!(
        out,
        "16 [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 4194304 bytes. Error code 12 (Cannot allocate memory)\n"
    );
    // Freeing makes room again, and results of ops count too.
    let (out, err) = torch_run(
        "import torch\nfor i in range(50):\n    x = torch.ones(1 << 20)\n    y = x * 2\n    del x, y\nprint('ok')\n",
        cfg(64 << 20),
    );
    assert_eq!((out.as_str(), err), ("ok\n", None));
}

#[test]
fn the_default_run_path_bounds_host_memory() {
    // Through `cudatutor run`'s path with the default bound (CUDATUTOR_HOST_MEM_LIMIT or half
    // of MemTotal, far below 4 TiB on any test machine), without allocating anything.
    let o = RunOptions {
        backend: BackendChoice::Sim,
        ..RunOptions::default()
    };
    let r = run_script(
        "import torch
x = 1
xs = [torch.empty(2**40)]
",
        &o,
    );
    let e = r.error.expect("refused");
    assert_eq!(e.type_name, "RuntimeError", "{}", e.traceback);
    assert_eq!(
        e.message,
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 4398046511104 bytes. Error code 12 (Cannot allocate memory)"
    );
    assert_eq!(e.line, Some(3));
    // A CUDA tensor of the same size is the card's OOM instead.
    let r = run_script(
        "import torch
x = torch.empty(2**40, device='cuda')
",
        &o,
    );
    assert_eq!(r.error.expect("refused").type_name, "OutOfMemoryError");
}

#[test]
fn huge_products_and_broadcasts_allocate_no_huge_temporaries() {
    for src in [
        // 6.4e10 multiply-adds: computed, and stopped by the run's limit when they take longer.
        "a = torch.ones(4000, 4000)\nb = a @ a\nprint(b.shape)\n",
        "a = torch.ones(4000, 4000, device='cuda')\nb = torch.nn.functional.linear(a, a)\nprint(b.shape)\n",
        // A batch broadcast would copy 10^10 elements.
        "a = torch.ones(1, 1000, 1000)\nb = torch.ones(10000, 1000, 1)\nprint((a @ b).shape)\n",
        "a = torch.ones(10000, 1000, 1)\nb = torch.ones(10000, 1, 1000)\nprint((a @ b).shape)\n",
        "a = torch.ones(10**4, 1, 1)\nb = torch.ones(1, 10**4, 1)\nprint((a + b).shape)\n",
        "a = torch.ones(2**16, 1)\nb = torch.ones(1, 2**16)\nprint(torch.where(a > 0, a, b).shape)\n",
    ] {
        let t = Instant::now();
        let (out, err) = torch_run(&format!("import torch\n{src}"), cfg(4 * GIB));
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{src}: {:?}",
            t.elapsed()
        );
        if let Some(e) = err {
            // TimeoutError: the product was computed for real and ran past the run's limit
            assert!(
                e.starts_with("OutOfMemoryError")
                    || e.starts_with("RuntimeError")
                    || e.starts_with("TimeoutError: the script ran longer than 10 seconds"),
                "{src}: {e}"
            );
        } else {
            assert!(out.starts_with("torch.Size(["), "{src}: {out}");
        }
    }
}

// ---------------------------------------------------------------- random op sequences

const DIMS: &[usize] = &[0, 1, 2, 3, 5, 64, 300, 1 << 20, 1 << 31, 1 << 40];

fn dtype(i: usize) -> DType {
    [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::Int64,
        DType::Int32,
        DType::UInt8,
        DType::Bool,
    ][i % 7]
}

fn device(i: usize) -> Device {
    [Device::Cpu, Device::Cuda(0), Device::Cuda(1), Device::Meta][i % 4]
}

#[derive(Debug, Clone)]
enum Op {
    New(Vec<usize>, usize, usize, u8),
    Bin(usize, usize, u8),
    Un(usize, u8),
    MatMul(usize, usize),
    Sum(usize, i64),
    Reshape(usize, Vec<i64>),
    Expand(usize, Vec<i64>),
    Cat(usize, usize, i64),
    Index(usize, i64),
    To(usize, usize, usize),
    Read(usize),
    Drop(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let shape = prop::collection::vec(prop::sample::select(DIMS), 0..4);
    let ishape = prop::collection::vec(
        prop_oneof![
            Just(-1i64),
            0i64..4,
            Just(1000),
            Just(1 << 20),
            Just(1 << 40)
        ],
        0..4,
    );
    prop_oneof![
        3 => (shape, 0usize..7, 0usize..4, 0u8..4).prop_map(|(s, d, v, k)| Op::New(s, d, v, k)),
        3 => (0usize..64, 0usize..64, 0u8..8).prop_map(|(a, b, k)| Op::Bin(a, b, k)),
        2 => (0usize..64, 0u8..6).prop_map(|(a, k)| Op::Un(a, k)),
        2 => (0usize..64, 0usize..64).prop_map(|(a, b)| Op::MatMul(a, b)),
        1 => (0usize..64, -3i64..3).prop_map(|(a, d)| Op::Sum(a, d)),
        1 => (0usize..64, ishape.clone()).prop_map(|(a, s)| Op::Reshape(a, s)),
        1 => (0usize..64, ishape).prop_map(|(a, s)| Op::Expand(a, s)),
        1 => (0usize..64, 0usize..64, -2i64..2).prop_map(|(a, b, d)| Op::Cat(a, b, d)),
        1 => (0usize..64, -3i64..1001).prop_map(|(a, i)| Op::Index(a, i)),
        1 => (0usize..64, 0usize..4, 0usize..7).prop_map(|(a, v, d)| Op::To(a, v, d)),
        1 => (0usize..64).prop_map(Op::Read),
        1 => (0usize..64).prop_map(Op::Drop),
    ]
}

fn pick(ts: &[Tensor], i: usize) -> Option<&Tensor> {
    if ts.is_empty() {
        None
    } else {
        Some(&ts[i % ts.len()])
    }
}

/// Checks one result: CUDA allocations past the card are OutOfMemoryError, CPU ones past
/// the host bound are the DefaultCPUAllocator failure, and results fit what was asked.
fn check(r: cudatutor::engine::Result<Tensor>, ts: &mut Vec<Tensor>) {
    match r {
        Ok(t) => {
            if ts.len() < 24 {
                ts.push(t);
            }
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            if e.kind == ErrorKind::OutOfMemoryError {
                assert!(
                    e.message
                        .starts_with("CUDA out of memory. Tried to allocate "),
                    "{}",
                    e.message
                );
            }
            if e.message.contains("DefaultCPUAllocator") {
                assert!(e.message.starts_with("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate "), "{}", e.message);
            }
        }
    }
}

fn run_ops(ops: &[Op]) {
    if let Ok(path) = std::env::var("FUZZ_TRACE") {
        let _ = std::fs::write(path, format!("{ops:?}"));
    }
    let rt = Runtime::new(RuntimeConfig {
        gpus: 2,
        gpu_memory: 80 << 30,
        host_mem_limit: Some(512 << 20),
        // A run's time limit, as run/session.rs sets it: a sum over an expanded view of
        // 3 x 2^40 elements is stopped by it (TimeoutError) instead of running for an hour.
        interrupt: Interrupt {
            cancel: None,
            deadline: Some((
                Instant::now() + Duration::from_secs(10),
                Duration::from_secs(10),
            )),
        },
        ..RuntimeConfig::default()
    });
    let mut ts: Vec<Tensor> = Vec::new();
    for op in ops {
        if std::env::var_os("FUZZ_TRACE").is_some() {
            eprintln!("op {op:?}");
        }
        let t0 = thread_cpu_time();
        match op {
            Op::New(shape, d, v, k) => {
                let (dt, dev) = (Some(dtype(*d)), device(*v));
                let r = match k {
                    0 => rt.zeros(shape, dt, dev),
                    1 => rt.ones(shape, dt, dev),
                    2 => rt.empty(shape, dt, dev),
                    _ => rt.randn(shape, dt, dev, None),
                };
                if let Ok(t) = &r
                    && let Device::Cuda(_) = dev
                {
                    let n: u64 = shape.iter().map(|&d| d as u64).product();
                    assert!(
                        n * t.element_size() as u64 <= 80 << 30,
                        "{shape:?} fit the card"
                    );
                }
                check(r, &mut ts);
            }
            Op::Bin(a, b, k) => {
                if let (Some(a), Some(b)) = (pick(&ts, *a), pick(&ts, *b)) {
                    let o = [
                        BinaryOp::Add,
                        BinaryOp::Mul,
                        BinaryOp::Div,
                        BinaryOp::Pow,
                        BinaryOp::Eq,
                        BinaryOp::Maximum,
                        BinaryOp::BitAnd,
                        BinaryOp::Sub,
                    ][*k as usize % 8];
                    let (a, b) = (a.clone(), b.clone());
                    check(rt.binary(o, &(&a).into(), &(&b).into()), &mut ts);
                    check(
                        rt.binary(o, &(&a).into(), &Operand::Scalar(Scalar::Float(0.5))),
                        &mut ts,
                    );
                }
            }
            Op::Un(a, k) => {
                if let Some(a) = pick(&ts, *a) {
                    let o = [
                        UnaryOp::Neg,
                        UnaryOp::Exp,
                        UnaryOp::Relu,
                        UnaryOp::Sigmoid,
                        UnaryOp::Round,
                        UnaryOp::BitNot,
                    ][*k as usize % 6];
                    let a = a.clone();
                    check(rt.unary(o, &a), &mut ts);
                }
            }
            Op::MatMul(a, b) => {
                if let (Some(a), Some(b)) = (pick(&ts, *a), pick(&ts, *b)) {
                    let (a, b) = (a.clone(), b.clone());
                    check(rt.matmul(&a, &b), &mut ts);
                }
            }
            Op::Sum(a, d) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    check(rt.sum(&a, Some(&[*d]), false, None), &mut ts);
                    check(rt.sum(&a, None, false, None), &mut ts);
                }
            }
            Op::Reshape(a, s) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    check(rt.reshape(&a, s), &mut ts);
                }
            }
            Op::Expand(a, s) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    check(a.expand(s), &mut ts);
                }
            }
            Op::Cat(a, b, d) => {
                if let (Some(a), Some(b)) = (pick(&ts, *a), pick(&ts, *b)) {
                    let (a, b) = (a.clone(), b.clone());
                    check(rt.cat(&[a, b], *d), &mut ts);
                }
            }
            Op::Index(a, i) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    check(rt.getitem(&a, &[TensorIndex::Int(*i)]), &mut ts);
                    check(
                        rt.getitem(&a, &[TensorIndex::Slice(Some(1), None, Some(2))]),
                        &mut ts,
                    );
                    let _ = rt.setitem(&a, &[TensorIndex::Int(*i)], &Scalar::Int(1).into());
                }
            }
            Op::To(a, v, d) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    check(
                        rt.to(&a, Some(device(*v)), Some(dtype(*d)), false, false, "to"),
                        &mut ts,
                    );
                }
            }
            Op::Read(a) => {
                if let Some(a) = pick(&ts, *a) {
                    let a = a.clone();
                    let _ = rt.repr(&a);
                    let _ = rt.item(&a);
                    if a.numel() < 1 << 20 {
                        let _ = rt.tolist(&a);
                    }
                }
            }
            Op::Drop(a) => {
                if !ts.is_empty() {
                    let i = a % ts.len();
                    ts.swap_remove(i);
                }
            }
        }
        // CPU time, not wall time: a bound on the op's own work that other processes on a
        // loaded machine cannot break (no single op may run away, whatever its sizes).
        let spent = thread_cpu_time().saturating_sub(t0);
        assert!(
            spent < Duration::from_secs(20),
            "{op:?} took {spent:?} of CPU time"
        );
        let (used, limit) = rt.host_memory();
        assert!(used <= limit, "host bytes {used} over the bound {limit}");
    }
    drop(ts);
    // all freed but for the cuBLAS workspaces a product took (kept for the process, as PyTorch)
    assert_eq!(rt.memory_allocated(0), rt.blas_workspace_bytes(0));
    assert_eq!(rt.memory_allocated(1), rt.blas_workspace_bytes(1));
    assert_eq!(rt.host_memory().0, 0);
}

/// This thread's CPU time so far (CLOCK_THREAD_CPUTIME_ID).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Where proptest keeps the failing inputs it found, replayed first on every run.
const REGRESSIONS: &str = "tests/corpus/proptest-regressions/fuzz_engine.txt";

/// Sequences the fuzzer found, kept as plain tests (each once panicked or aborted).
#[test]
fn regressions() {
    // Summing an expanded view of 3 x 2^40 elements materialised it: abort on allocation.
    run_ops(&[
        Op::New(vec![3], 0, 0, 1),
        Op::Expand(0, vec![1 << 40, 3]),
        Op::Sum(1, 0),
    ]);
    // reshape to [2^40, 2^40]: the shape product overflowed (a panic in debug builds; in
    // release it wrapped and could accept a wrong shape).
    run_ops(&[
        Op::New(vec![], 0, 0, 0),
        Op::Reshape(0, vec![1 << 40, 1 << 40]),
    ]);
    // reshape of an empty tensor to [-1, 2^40, 2^40]: contiguous strides overflowed.
    run_ops(&[
        Op::New(vec![0], 0, 0, 0),
        Op::Reshape(0, vec![-1, 1 << 40, 1 << 40]),
    ]);
    // Summing a [1000, 2**20, 0] over its empty dim filled a 10^9-element result (8 GB,
    // 20 s) although results past 2**24 elements keep no values.
    run_ops(&[Op::New(vec![1000, 1 << 20, 0], 0, 0, 1), Op::Sum(0, 2)]);
    // An empty [2**31, 0, 2**40] summed over dim 1: numel() of the permuted view and the
    // result's size multiplied 2**31 by 2**40 (overflow panic).
    run_ops(&[Op::New(vec![1 << 31, 0, 1 << 40], 0, 0, 0), Op::Sum(0, 1)]);
    // A [1000, 2**20, 2**31] meta tensor: its byte count times two (the cost of a copy)
    // overflowed u64.
    run_ops(&[
        Op::New(vec![1000, 1 << 20, 1 << 31], 0, 3, 0),
        Op::Bin(0, 0, 0),
    ]);
    // Slicing an empty [0, 2**40, 2**31]: its stride times the step overflowed.
    run_ops(&[Op::New(vec![0, 1 << 40, 1 << 31], 0, 0, 0), Op::Index(0, 0)]);
    // matmul of an empty [0, 2**31, 2**31] batch by itself: the cost model's byte and flop
    // counts overflowed.
    run_ops(&[
        Op::New(vec![0, 1 << 31, 1 << 31], 0, 0, 0),
        Op::Cat(0, 0, 1),
        Op::MatMul(1, 1),
    ]);
    // cat of an empty [2**40, 3, 0] with itself looped over its 2**40 rows (a hang).
    run_ops(&[Op::New(vec![1 << 40, 3, 0], 0, 0, 0), Op::Cat(0, 0, 1)]);
}

proptest! {
    #![proptest_config(fuzz::config(96, REGRESSIONS))]

    #[test]
    fn random_op_sequences(ops in prop::collection::vec(op(), 1..40)) {
        run_ops(&ops);
    }
}

proptest! {
    #![proptest_config(fuzz::config(24, REGRESSIONS))]

    /// Random torch scripts mixing sizes from 0 to 10^12 elements, devices and dtypes.
    #[test]
    fn random_torch_scripts(lines in prop::collection::vec((
            prop::sample::select(vec!["0", "1", "3", "10**3", "10**8", "10**12", "2**31", "-1"]),
            prop::sample::select(vec!["'cpu'", "'cuda'", "'meta'", "'cuda:1'"]),
            prop::sample::select(vec!["torch.float32", "torch.int64", "torch.bool", "torch.float16"]),
            prop::sample::select(vec![
                "x = torch.zeros({n}, device={d}, dtype={t})",
                "x = torch.ones(({n}, 2), device={d}, dtype={t})",
                "y = x + x",
                "y = x @ x.T if x.dim() == 2 else x",
                "print(x.sum())",
                "print(x)",
                "x = x.to({d})",
                "x = torch.cat([x, x])",
                "x = x.reshape(-1)",
                "print(torch.cuda.memory_allocated())",
                "x = x[::2]",
                "del x",
            ]),
        ), 1..8)) {
        let mut src = String::from("import torch\nx = torch.zeros(2)\n");
        for (n, d, t, tpl) in lines {
            let line = tpl.replace("{n}", n).replace("{d}", d).replace("{t}", t);
            src.push_str(&format!("try:\n    {line}\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:200])\n"));
        }
        let (_out, err) = torch_run(&src, cfg(256 << 20));
        prop_assert_eq!(err, None);
    }
}

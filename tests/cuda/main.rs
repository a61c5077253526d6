//! GPU tests: the cuda device against the emulated device and the host, on a real GPU.
//! They are `#[ignore]`d (CI has no GPU); scripts/gpu-check.sh runs this binary with
//! `--ignored` on a lent GPU machine. Each needs a GPU and fails, saying so, without one.
//! (The .py files beside this one are the PyTorch scripts gpu-check.sh records.)

use cudatutor::engine::cuda::cache::PtxCache;
use cudatutor::engine::cuda::emulated::EmulatedDevice;
use cudatutor::engine::cuda::gpu::GpuDevice;
use cudatutor::engine::cuda::launch::{CtReduceGeom, DevicePtr};
use cudatutor::engine::cuda::nvrtc;
use cudatutor::engine::cuda::ops::{
    BinaryKernel, CompareKernel, Elem, Gemm, Kernels, NllReduction, ReduceKernel, Scalar, Strided,
    UnaryKernel,
};
use cudatutor::engine::cuda::real::CudaDevice;
use cudatutor::engine::cuda::selftest::SelfTestReport;

#[path = "../support/warm_runs.rs"]
mod warm_runs;
use warm_runs::timed_warm_runs;

/// The cudatutor binary: on the GPU machine it is not where it was built, and gpu-check.sh
/// names it in CUDATUTOR_BIN.
fn cudatutor_bin() -> std::path::PathBuf {
    std::env::var_os("CUDATUTOR_BIN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_cudatutor").into())
}

fn gpu() -> CudaDevice {
    let n = nvrtc::locate().unwrap_or_else(|e| panic!("NVRTC is needed: {e}"));
    let dir = std::env::temp_dir().join(format!("cudatutor-gpu-tests-{}", std::process::id()));
    CudaDevice::open(0, n, PtxCache::new(dir), false)
        .unwrap_or_else(|e| panic!("these tests need a GPU: {e}"))
}

fn emu() -> EmulatedDevice {
    EmulatedDevice::new(1 << 32, 1 << 32).unwrap()
}

fn upload(d: &dyn GpuDevice, bytes: &[u8]) -> DevicePtr {
    let p = d
        .mem_alloc((bytes.len().max(1) as u64).next_multiple_of(512))
        .unwrap();
    d.copy_h2d(p, bytes, false).unwrap();
    p
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i64s(v: &[i64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `n` elements of `N` bytes each, copied back from `p` and decoded by `from_le_bytes`.
fn read_back<const N: usize, T>(
    d: &dyn GpuDevice,
    p: DevicePtr,
    n: usize,
    from_le_bytes: fn([u8; N]) -> T,
) -> Vec<T> {
    let mut raw = vec![0u8; n * N];
    d.copy_d2h(&mut raw, p).unwrap();
    raw.chunks(N)
        .map(|c| from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn read_f32(d: &dyn GpuDevice, p: DevicePtr, n: usize) -> Vec<f32> {
    read_back(d, p, n, f32::from_le_bytes)
}

fn read_i64(d: &dyn GpuDevice, p: DevicePtr, n: usize) -> Vec<i64> {
    read_back(d, p, n, i64::from_le_bytes)
}

/// Runs `f` on both devices and returns (gpu, emulated) f32 outputs of `n` elements.
fn both(
    n: usize,
    sm: u32,
    f: &dyn Fn(&Kernels, &dyn GpuDevice, DevicePtr),
) -> (Vec<f32>, Vec<f32>) {
    let (g, e) = (gpu(), emu());
    let mut outs = Vec::new();
    for d in [&g as &dyn GpuDevice, &e as &dyn GpuDevice] {
        let k = Kernels {
            device: d,
            sm_count: sm,
        };
        let out = d
            .mem_alloc(((n * 8).max(1) as u64).next_multiple_of(512))
            .unwrap();
        f(&k, d, out);
        d.synchronize().unwrap();
        outs.push(read_f32(d, out, n));
    }
    let e_out = outs.pop().unwrap();
    (outs.pop().unwrap(), e_out)
}

/// The float32 product [40, 70] @ [70, 50] into the row-major [40, 50] at `c`, both GPU
/// tests' GEMM: A and B as (pointer, row stride, column stride) in elements.
fn x40x70_times_70x50(
    a: (DevicePtr, isize, isize),
    b: (DevicePtr, isize, isize),
    c: DevicePtr,
) -> Gemm {
    Gemm {
        elem: Elem::F32,
        batch: 1,
        m: 40,
        n: 50,
        k: 70,
        alpha: 1.0,
        a: (a.0, a.1, a.2, 0),
        b: (b.0, b.1, b.2, 0),
        beta: 0.0,
        c: (c, 50, 0),
    }
}

/// `ptr` as a contiguous 1-D operand or output of an elementwise kernel.
fn dense(ptr: DevicePtr) -> Strided<'static> {
    Strided { ptr, strides: &[1] }
}

fn close(what: &str, g: &[f32], e: &[f32], rel: f32) {
    for (i, (a, b)) in g.iter().zip(e).enumerate() {
        let ok = a.to_bits() == b.to_bits() || (a - b).abs() <= rel * b.abs().max(1e-30);
        assert!(ok, "{what}[{i}]: gpu {a:e}, emulated {b:e}");
    }
}

/// Equal within `tol` times the largest magnitude in `e`: for results of sums whose terms
/// cancel (a GEMM element near zero), where a relative bound per element is meaningless (the
/// H200 run: cuBLAS -1.19e-7 against the tiled kernel's -5.96e-8 in a product of unit-sized
/// values).
fn close_abs(what: &str, g: &[f32], e: &[f32], tol: f32) {
    let scale = e.iter().fold(1e-30f32, |m, x| m.max(x.abs()));
    for (i, (a, b)) in g.iter().zip(e).enumerate() {
        assert!(
            (a - b).abs() <= tol * scale,
            "{what}[{i}]: gpu {a:e}, reference {b:e} (bound {:e})",
            tol * scale
        );
    }
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_self_test_passes_in_its_own_process() {
    let out = std::process::Command::new(cudatutor_bin())
        .arg("__selftest")
        .env(
            "CUDATUTOR_CACHE_DIR",
            std::env::temp_dir().join("cudatutor-gpu-selftest"),
        )
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let r: SelfTestReport =
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    for c in &r.checks {
        eprintln!(
            "{:<55} {} {:e} {:?}",
            c.kernel, c.passed, c.max_abs_diff, c.detail
        );
    }
    assert!(r.passed(), "{:?}", r.first_failure());
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_elementwise_compare_and_copy_agree_with_the_emulated_device_bit_for_bit() {
    let x: Vec<f32> = (0..5000)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.173)
        .collect();
    let y: Vec<f32> = (0..5000)
        .map(|i| ((i * 11 % 89) as f32 - 44.0) * 0.31 + 0.01)
        .collect();
    for op in [
        BinaryKernel::Add,
        BinaryKernel::Sub,
        BinaryKernel::Mul,
        BinaryKernel::Div,
        BinaryKernel::Maximum,
    ] {
        let (g, e) = both(5000, 132, &|k, d, out| {
            let (a, b) = (upload(d, &f32s(&x)), upload(d, &f32s(&y)));
            k.binary(op, Elem::F32, &[5000], dense(a), dense(b), dense(out))
                .unwrap();
        });
        close(&format!("{op:?}"), &g, &e, 0.0);
    }
    let (g, e) = both(5000, 132, &|k, d, out| {
        let a = upload(d, &f32s(&x));
        k.binary_scalar(
            BinaryKernel::Div,
            false,
            &[5000],
            dense(a),
            Scalar::F32(3.0),
            dense(out),
        )
        .unwrap();
    });
    close("x / 3 (PyTorch's reciprocal multiply)", &g, &e, 0.0);
    for op in ["exp", "log", "tanh", "sigmoid"].map(|n| UnaryKernel::from_name(n).unwrap()) {
        let (g, e) = both(5000, 132, &|k, d, out| {
            let a = upload(
                d,
                &f32s(&y.iter().map(|v| v.abs() + 0.5).collect::<Vec<_>>()),
            );
            k.unary(op, Elem::F32, &[5000], dense(a), dense(out))
                .unwrap();
        });
        // CUDA's expf/logf/tanhf are within 2 ulp of the correctly rounded value.
        close(&format!("{op:?}"), &g, &e, 5e-7);
    }
    let (g, e) = both(5000, 132, &|k, d, out| {
        let a = upload(d, &f32s(&x));
        k.compare_scalar(
            CompareKernel::Gt,
            &[5000],
            dense(a),
            Scalar::F32(0.0),
            dense(out),
        )
        .unwrap();
    });
    close("gt", &g[..1250], &e[..1250], 0.0);
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_reductions_softmax_loss_and_gemm_agree_with_the_emulated_device() {
    let x: Vec<f32> = (0..64 * 300)
        .map(|i| ((i * 29 % 97) as f32 - 48.0) * 0.05)
        .collect();
    let (g, e) = both(64, 132, &|k, d, out| {
        let a = upload(d, &f32s(&x));
        let geom = CtReduceGeom {
            outer: 64,
            len: 300,
            inner: 1,
            s_outer: 300,
            s_len: 1,
            s_inner: 1,
        };
        k.reduce(ReduceKernel::Sum, Elem::F32, geom, a, out, None)
            .unwrap();
    });
    // Same kernel, same order: the GPU adds in the order the emulated device does.
    close("sum", &g, &e, 0.0);
    let (g, e) = both(64 * 300, 132, &|k, d, out| {
        let a = upload(d, &f32s(&x));
        k.softmax(true, Elem::F32, 64, 300, 1, a, out).unwrap();
    });
    close("log_softmax", &g, &e, 5e-7);
    let (g, e) = both(2, 132, &|k, d, out| {
        let lp = upload(d, &f32s(&x[..64 * 5]));
        let t = upload(
            d,
            &i64s(
                &(0..64)
                    .map(|i| if i % 7 == 3 { -100 } else { i % 5 })
                    .collect::<Vec<_>>(),
            ),
        );
        k.nll_loss(
            Elem::F32,
            false,
            NllReduction::Mean,
            Some(64),
            5,
            lp,
            t,
            None,
            -100,
            out,
            out.offset(4),
        )
        .unwrap();
    });
    close("nll_loss", &g, &e, 0.0);
    let (g, e) = both(40 * 50, 132, &|k, d, out| {
        let a = upload(d, &f32s(&x[..40 * 70]));
        let b = upload(d, &f32s(&x[100..100 + 70 * 50]));
        k.gemm(&x40x70_times_70x50((a, 70, 1), (b, 50, 1), out))
            .unwrap();
    });
    // The GPU contracts a * b + acc into fused multiply-adds; the emulated build does not.
    close("sgemm (tiled)", &g, &e, 1e-5);
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_random_numbers_equal_the_emulated_devices() {
    let (g, e) = both(100_003, 132, &|k, _d, out| {
        k.random_float(false, Elem::F32, 100_003, 42, 8, 0.0, 1.0, out)
            .unwrap();
    });
    close(
        "uniform_f32 (exact integer and fma arithmetic)",
        &g,
        &e,
        0.0,
    );
    let (g, e) = both(100_003, 132, &|k, _d, out| {
        k.random_float(true, Elem::F32, 100_003, 42, 8, 0.0, 1.0, out)
            .unwrap();
    });
    // The GPU's fast __sincosf and logf against correctly rounded ones: an absolute bound
    // (their error is absolute, about 2^-21; the H200 run found -8.47835e-2 vs -8.478332e-2).
    close_abs("normal_f32", &g, &e, 1e-5);
    let (gd, ed) = (gpu(), emu());
    let mut outs = Vec::new();
    for d in [&gd as &dyn GpuDevice, &ed as &dyn GpuDevice] {
        let k = Kernels {
            device: d,
            sm_count: 132,
        };
        let out = d.mem_alloc(8 * 1024).unwrap();
        k.randint(Elem::I64, 1000, 7, 0, -3, 1 << 40, out).unwrap();
        outs.push(read_i64(d, out, 1000));
    }
    assert_eq!(outs[0], outs[1], "randint");
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_cublas_when_present_agrees_with_the_tiled_kernel() {
    let g = gpu();
    let Some(blas) = g.cublas() else {
        eprintln!("cuBLAS not loadable here: the tiled kernel is what runs");
        return;
    };
    let ws_bytes = g.cublas_workspace_size();
    let ws = g.mem_alloc(ws_bytes.max(512)).unwrap();
    blas.set_workspace(ws, ws_bytes).unwrap();
    let x: Vec<f32> = (0..40 * 70)
        .map(|i| ((i * 13 % 31) as f32 - 15.0) * 0.1)
        .collect();
    let w: Vec<f32> = (0..50 * 70)
        .map(|i| ((i * 7 % 23) as f32 - 11.0) * 0.05)
        .collect();
    let (a, b) = (upload(&g, &f32s(&x)), upload(&g, &f32s(&w)));
    let (c1, c2) = (g.mem_alloc(8192).unwrap(), g.mem_alloc(8192).unwrap());
    // x [40, 70] @ w.t() where w is [50, 70] (nn.Linear's layout).
    let product = x40x70_times_70x50((a, 70, 1), (b, 1, 70), c1);
    blas.gemm(&product).unwrap();
    let k = Kernels {
        device: &g,
        sm_count: g.sm_count(),
    };
    // the same product into c2
    k.gemm(&Gemm {
        c: (c2, 50, 0),
        ..product
    })
    .unwrap();
    g.synchronize().unwrap();
    close_abs(
        "cublas vs tiled",
        &read_f32(&g, c1, 2000),
        &read_f32(&g, c2, 2000),
        1e-5,
    );
}

#[path = "../support/report_compare.rs"]
mod report_compare;

/// The card sizes a run may print, in GiB: the sim's modelled one and this machine's GPUs', as
/// the driver reports them (80 GiB modelled; 139.8 on an H200, 79.19 on an H100), so the mask
/// below holds on any card without a list of models.
fn card_sizes_gib() -> Vec<f64> {
    let mut sizes =
        vec![cudatutor::run::RunOptions::default().gpu_memory as f64 / (1u64 << 30) as f64];
    for d in cudatutor::engine::cuda::probe::probe_driver().devices {
        sizes.push(d.total_memory_bytes as f64 / (1u64 << 30) as f64);
    }
    sizes
}

/// Whether `line` is only a card size printed with as many decimals as it shows (l4-oom's
/// solution prints the capacity in GiB).
fn is_a_card_size(line: &str, sizes: &[f64]) -> bool {
    let t = line.trim();
    let Ok(v) = t.parse::<f64>() else {
        return false;
    };
    let decimals = t.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let scale = 10f64.powi(decimals.min(6));
    sizes
        .iter()
        .any(|s| ((s * scale).round() / scale - v).abs() < 0.5 / scale)
}

#[test]
fn a_card_size_is_masked_on_any_card_without_a_list_of_models() {
    // byte counts that print as an H200's 139.8 GiB and an H100's 79.19 GiB, and the sim's 80
    let sizes = [
        150_110_011_392f64,
        85_031_714_816f64,
        80.0 * (1u64 << 30) as f64,
    ]
    .map(|b| b / (1u64 << 30) as f64);
    for printed in ["139.8", "139.80", "79.19", "79.2", "80.0", "80", " 80.00 "] {
        assert!(is_a_card_size(printed, &sizes), "{printed}");
    }
    for other in ["139.7", "79.18", "81", "12.5", "tensor(80.)", ""] {
        assert!(!is_a_card_size(other, &sizes), "{other}");
    }
}

/// `text` with the card-size sentence of PyTorch's out-of-memory message masked ("GPU 0 has a
/// total capacity of X of which Y is free. Including non-PyTorch memory, this process has Z
/// memory in use."), and l4-oom's printed capacity (a line that is only that number).
fn without_card_size(text: &str) -> String {
    let sizes = card_sizes_gib();
    text.lines()
        .map(|line| {
            let mut line = line.to_string();
            if let (Some(a), Some(b)) = (
                line.find(" has a total capacity of "),
                line.find(" memory in use."),
            ) && a < b
            {
                line.replace_range(a..b, " has <this card's memory>");
            }
            if is_a_card_size(&line, &sizes) {
                line = "<capacity in GiB>".into();
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_lesson_exercises_give_the_sims_reports() {
    // Every built-in exercise, from its starting code (where the device-side asserts are) and
    // from its solution, on the sim in this process and on the real GPU through the worker,
    // as `cudatutor run --backend cuda` runs it. Float results may differ in float32 rounding
    // (the kernels' summation order is the GPU's); anything else must agree.
    use cudatutor::lesson::{Catalog, Lang};
    use cudatutor::run::worker::WorkerClient;
    use cudatutor::run::{BackendChoice, RunOptions, run_exercise_in_process};
    use report_compare::{Allowed, first_difference, lesson_runs};
    let mut client = WorkerClient::with_program(cudatutor_bin());
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (mut exact, mut float_only, mut runs) = (0, 0, 0);
    let (mut launches, mut fallbacks) = (0u64, std::collections::BTreeMap::new());
    let mut failures = Vec::new();
    for (ex, key, code, sim_opts) in lesson_runs(&catalog) {
        let gpu_opts = RunOptions {
            backend: BackendChoice::Cuda,
            ..sim_opts.clone()
        };
        let mut sim = run_exercise_in_process(&code, ex.check.as_deref(), &sim_opts);
        let t0 = std::time::Instant::now();
        let mut gpu = client.run(&code, ex.check.as_deref(), &gpu_opts);
        // The real card's size is its own (139.8 GiB on an H200, 79.19 on an H100, 80
        // GiB modelled): in
        // the counters and in an out-of-memory message, where it is the one difference
        // the first GPU run found (l4-oom's solution even prints it).
        for r in [&mut sim, &mut gpu] {
            for d in &mut r.memory.devices {
                d.capacity = 0;
            }
            r.stdout = without_card_size(&r.stdout);
            r.stderr = without_card_size(&r.stderr);
            if let Some(e) = r.error.as_mut() {
                e.message = without_card_size(&e.message);
            }
        }
        let ms = t0.elapsed().as_millis();
        runs += 1;
        if let Some(u) = &gpu.device_usage {
            launches += u.launches;
            for (op, n) in &u.fallbacks {
                *fallbacks.entry(op.clone()).or_insert(0u64) += n;
            }
        }
        let verdict = if gpu.backend != "cuda" || gpu.internal_error.is_some() {
            failures.push(key.clone());
            format!("NOT ON THE GPU: {} {:?}", gpu.backend, gpu.internal_error)
        } else if first_difference(&sim, &gpu, Allowed::default()).is_none() {
            exact += 1;
            "identical".to_string()
        } else {
            let float = Allowed {
                float: true,
                ..Allowed::default()
            };
            match first_difference(&sim, &gpu, float) {
                None => {
                    float_only += 1;
                    "float32 rounding only".to_string()
                }
                Some((field, a, b)) => {
                    failures.push(key.clone());
                    format!("DIFFERS in {field}\n--- sim\n{a}\n--- cuda\n{b}")
                }
            }
        };
        eprintln!("{key:40} {ms:>6} ms  {verdict}");
    }
    eprintln!(
        "cuda vs sim: {exact} of {runs} runs identical, {float_only} differ in float32 rounding only"
    );
    eprintln!("kernel launches: {launches}; host fallbacks (op: count): {fallbacks:?}");
    assert!(runs >= 40, "only {runs} runs: were the lessons found?");
    assert!(launches > 0, "no kernel ran on the GPU");
    assert!(failures.is_empty(), "differ from the sim: {failures:?}");
}

/// First and warm exercise runs through the warm worker (`run_exercise`, as the pager, `watch`
/// and `check --all` run them) on the GPU: prints the wall times gpu-check.sh puts in its
/// summary (goals on a GPU: the first under 400 ms, a warm one under 50 ms beyond the
/// script's own GPU work). The worker keeps the CUDA context and the loaded kernels between
/// runs, so the warm runs must come from one worker process. `CUDATUTOR_WARM_BACKEND=emulated`
/// runs the same steps on the emulated device (gpu-check.sh's dry run without a GPU).
#[test]
#[ignore = "needs a GPU (scripts/gpu-check.sh)"]
fn gpu_warm_worker_first_and_warm_runs() {
    use cudatutor::run::{BackendChoice, RunOptions, warm_worker};
    warm_worker::use_program(cudatutor_bin());
    let (backend, name) = match std::env::var("CUDATUTOR_WARM_BACKEND").as_deref() {
        Ok("emulated") => (BackendChoice::Emulated, "emulated"),
        _ => (BackendChoice::Cuda, "cuda"),
    };
    let opts = RunOptions {
        backend,
        ..RunOptions::default()
    };
    let (times, pids) = timed_warm_runs(&opts, name, 5);
    let ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
    warm_worker::release();
    let warm: Vec<String> = ms[1..].iter().map(|t| format!("{t:.1}")).collect();
    eprintln!(
        "warm worker on {name}: first {:.1} ms, warm {} ms, one worker for all: {}",
        ms[0],
        warm.join(" / "),
        pids.windows(2).all(|w| w[0] == w[1])
    );
    assert!(
        pids.windows(2).all(|w| w[0] == w[1]),
        "each run started a worker: {pids:?}"
    );
}

//! Trust, then use: a self-test that runs a dozen small kernels and one failing launch on a
//! device and compares the results with values computed on the host. `--backend auto` picks
//! cuda only after this passed on that (binary, driver, GPU); the emulated device runs the
//! same test in CI. `doctor` prints which kernel disagreed and by how much.
//!
//! The failing launch comes last: it poisons the context (a device-side assert is sticky), so
//! on a real GPU the test runs in a process of its own (`cudatutor __selftest`).

use super::gpu::GpuDevice;
use super::launch::{CtReduceGeom, DeviceError, DevicePtr};
use super::ops::{
    BinaryKernel, CompareKernel, Elem, Gemm, Kernels, NllReduction, ReduceKernel, Scalar, Strided,
    UnaryKernel,
};
use serde::{Deserialize, Serialize};

/// One kernel's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelCheck {
    /// What ran, e.g. `add_f32 (broadcast)`.
    pub kernel: String,
    pub passed: bool,
    /// Largest |device - host| over the outputs (0 when exact).
    pub max_abs_diff: f64,
    /// The tolerance it was held to (0: exact).
    pub tolerance: f64,
    /// Why it failed, when it did (a launch error, a wrong log line, ...).
    pub detail: Option<String>,
}

/// The whole self-test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelfTestReport {
    /// `emulated` or `cuda`.
    pub device_kind: String,
    pub device_name: String,
    pub checks: Vec<KernelCheck>,
}

impl SelfTestReport {
    pub fn passed(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.passed)
    }

    /// The first disagreement, in words, for doctor.
    pub fn first_failure(&self) -> Option<String> {
        self.checks.iter().find(|c| !c.passed).map(|c| {
            let why = c.detail.clone().unwrap_or_else(|| {
                format!(
                    "differs from the host by {:e} (tolerance {:e})",
                    c.max_abs_diff, c.tolerance
                )
            });
            format!("{}: {why}", c.kernel)
        })
    }
}

/// The device-log line the failing launch must print (PyTorch 2.15's, see loss.cu).
pub(crate) const EXPECTED_ASSERT_LINE: &str = "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [1,0,0] Assertion `t >= 0 && t < n_classes` failed.";

struct Mem<'a> {
    dev: &'a dyn GpuDevice,
    segments: Vec<(DevicePtr, u64)>,
}

impl Mem<'_> {
    fn alloc(&mut self, bytes: usize) -> Result<DevicePtr, DeviceError> {
        let len = (bytes.max(1) as u64).next_multiple_of(512);
        let p = self.dev.mem_alloc(len)?;
        self.segments.push((p, len));
        Ok(p)
    }
    fn upload<T: Copy>(&mut self, v: &[T]) -> Result<DevicePtr, DeviceError> {
        let p = self.alloc(std::mem::size_of_val(v))?;
        // SAFETY: viewing plain values as bytes.
        let raw = unsafe {
            std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v))
        };
        self.dev.copy_h2d(p, raw, false)?;
        Ok(p)
    }
    fn download<T: Copy + Default>(&self, p: DevicePtr, n: usize) -> Result<Vec<T>, DeviceError> {
        let mut v = vec![T::default(); n];
        // SAFETY: writing plain values through their bytes.
        let raw = unsafe {
            std::slice::from_raw_parts_mut(
                v.as_mut_ptr().cast::<u8>(),
                std::mem::size_of_val(&v[..]),
            )
        };
        self.dev.copy_d2h(raw, p)?;
        Ok(v)
    }
}

impl Drop for Mem<'_> {
    fn drop(&mut self) {
        for (p, len) in self.segments.drain(..) {
            self.dev.mem_free(p, len);
        }
    }
}

fn compare(kernel: &str, got: &[f64], want: &[f64], tolerance: f64) -> KernelCheck {
    let mut max = 0.0f64;
    let mut bad = got.len() != want.len();
    for (g, w) in got.iter().zip(want) {
        if g.is_nan() && w.is_nan() {
            continue;
        }
        let d = (g - w).abs();
        if d.is_nan() {
            bad = true;
        } else {
            max = max.max(d);
        }
        let within = d <= tolerance * w.abs().max(1.0);
        if !within {
            bad = true;
        }
    }
    KernelCheck {
        kernel: kernel.into(),
        passed: !bad,
        max_abs_diff: max,
        tolerance,
        detail: (got.len() != want.len())
            .then(|| format!("{} values, expected {}", got.len(), want.len())),
    }
}

fn failed(kernel: &str, e: impl std::fmt::Display) -> KernelCheck {
    KernelCheck {
        kernel: kernel.into(),
        passed: false,
        // Nothing was compared (JSON has no NaN): `detail` says why.
        max_abs_diff: 0.0,
        tolerance: 0.0,
        detail: Some(e.to_string()),
    }
}

fn f64s<T: Copy + Into<f64>>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| x.into()).collect()
}

/// Runs the self-test on `device` (which it leaves poisoned: use a fresh device or process).
pub fn run(device: &dyn GpuDevice, sm_count: u32) -> SelfTestReport {
    let k = Kernels { device, sm_count };
    let mut checks = Vec::new();
    let mut step = |name: &str, f: &mut dyn FnMut(&mut Mem) -> Result<KernelCheck, DeviceError>| {
        let mut mem = Mem {
            dev: device,
            segments: Vec::new(),
        };
        checks.push(f(&mut mem).unwrap_or_else(|e| failed(name, e)));
    };

    let a: Vec<f32> = (0..24).map(|i| (i as f32 - 11.5) * 0.37).collect();
    let row: Vec<f32> = (0..6).map(|i| 1.0 + i as f32 * 0.5).collect();

    step("fill_f32", &mut |m| {
        let out = m.alloc(100 * 4)?;
        k.fill(100, Scalar::F32(2.5), out)?;
        Ok(compare(
            "fill_f32",
            &f64s(&m.download::<f32>(out, 100)?),
            &[2.5; 100],
            0.0,
        ))
    });
    step("arange_i64", &mut |m| {
        let out = m.alloc(10 * 8)?;
        k.arange(Elem::I64, 10, 3.0, 2.0, out)?;
        let got: Vec<f64> = m
            .download::<i64>(out, 10)?
            .iter()
            .map(|&v| v as f64)
            .collect();
        let want: Vec<f64> = (0..10).map(|i| (3 + 2 * i) as f64).collect();
        Ok(compare("arange_i64", &got, &want, 0.0))
    });
    step("add_f32 (broadcast)", &mut |m| {
        let (pa, pb, out) = (m.upload(&a)?, m.upload(&row)?, m.alloc(24 * 4)?);
        k.binary(
            BinaryKernel::Add,
            Elem::F32,
            &[4, 6],
            Strided {
                ptr: pa,
                strides: &[6, 1],
            },
            Strided {
                ptr: pb,
                strides: &[0, 1],
            },
            Strided {
                ptr: out,
                strides: &[6, 1],
            },
        )?;
        let want: Vec<f64> = (0..24).map(|i| (a[i] + row[i % 6]) as f64).collect();
        Ok(compare(
            "add_f32 (broadcast)",
            &f64s(&m.download::<f32>(out, 24)?),
            &want,
            0.0,
        ))
    });
    step("div_f32 by a scalar", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(24 * 4)?);
        let s = Strided {
            ptr: pa,
            strides: &[1],
        };
        k.binary_scalar(
            BinaryKernel::Div,
            false,
            &[24],
            s,
            Scalar::F32(3.0),
            Strided {
                ptr: out,
                strides: &[1],
            },
        )?;
        // PyTorch's CUDA division by a scalar: a * (1 / s) in float.
        let want: Vec<f64> = a.iter().map(|&x| (x * (1.0f32 / 3.0)) as f64).collect();
        Ok(compare(
            "div_f32 by a scalar",
            &f64s(&m.download::<f32>(out, 24)?),
            &want,
            0.0,
        ))
    });
    step("exp_f32 (transposed view)", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(24 * 4)?);
        // a viewed as [6, 4].t() -> shape [4, 6] with strides [1, 4]; output contiguous.
        k.unary(
            UnaryKernel::from_name("exp").ok_or(DeviceError::Unsupported("exp kernel".into()))?,
            Elem::F32,
            &[4, 6],
            Strided {
                ptr: pa,
                strides: &[1, 4],
            },
            Strided {
                ptr: out,
                strides: &[6, 1],
            },
        )?;
        let want: Vec<f64> = (0..24)
            .map(|i| a[(i % 6) * 4 + i / 6].exp() as f64)
            .collect();
        Ok(compare(
            "exp_f32 (transposed view)",
            &f64s(&m.download::<f32>(out, 24)?),
            &want,
            2e-7,
        ))
    });
    step("gt_scalar_f32", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(24)?);
        k.compare_scalar(
            CompareKernel::Gt,
            &[24],
            Strided {
                ptr: pa,
                strides: &[1],
            },
            Scalar::F32(0.5),
            Strided {
                ptr: out,
                strides: &[1],
            },
        )?;
        let got: Vec<f64> = m
            .download::<u8>(out, 24)?
            .iter()
            .map(|&b| b as f64)
            .collect();
        let want: Vec<f64> = a.iter().map(|&x| f64::from(u8::from(x > 0.5))).collect();
        Ok(compare("gt_scalar_f32", &got, &want, 0.0))
    });
    step("sum_f32 (dim 1)", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(4 * 4)?);
        let g = CtReduceGeom {
            outer: 4,
            len: 6,
            inner: 1,
            s_outer: 6,
            s_len: 1,
            s_inner: 1,
        };
        k.reduce(ReduceKernel::Sum, Elem::F32, g, pa, out, None)?;
        let want: Vec<f64> = (0..4)
            .map(|r| a[r * 6..r * 6 + 6].iter().map(|&x| x as f64).sum())
            .collect();
        Ok(compare(
            "sum_f32 (dim 1)",
            &f64s(&m.download::<f32>(out, 4)?),
            &want,
            1e-6,
        ))
    });
    step("argmax_f32 (dim 0)", &mut |m| {
        let v: Vec<f32> = vec![1.0, 5.0, 2.0, 7.0, 5.0, 1.0];
        let (pa, out) = (m.upload(&v)?, m.alloc(3 * 8)?);
        let g = CtReduceGeom {
            outer: 1,
            len: 2,
            inner: 3,
            s_outer: 6,
            s_len: 3,
            s_inner: 1,
        };
        k.reduce(ReduceKernel::Argmax, Elem::F32, g, pa, out, None)?;
        let got: Vec<f64> = m
            .download::<i64>(out, 3)?
            .iter()
            .map(|&i| i as f64)
            .collect();
        Ok(compare("argmax_f32 (dim 0)", &got, &[1.0, 0.0, 0.0], 0.0))
    });
    step("log_softmax_f32", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(24 * 4)?);
        k.softmax(true, Elem::F32, 4, 6, 1, pa, out)?;
        let mut want = Vec::new();
        for r in 0..4 {
            let x: Vec<f64> = a[r * 6..r * 6 + 6].iter().map(|&v| v as f64).collect();
            let mx = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let lse = x.iter().map(|v| (v - mx).exp()).sum::<f64>().ln();
            want.extend(x.iter().map(|v| v - mx - lse));
        }
        Ok(compare(
            "log_softmax_f32",
            &f64s(&m.download::<f32>(out, 24)?),
            &want,
            2e-6,
        ))
    });
    step("nll_loss 2d (weight, ignore_index)", &mut |m| {
        let logp: Vec<f32> = (0..12).map(|i| -(i as f32) * 0.3).collect();
        let target: Vec<i64> = vec![0, -100, 2, 1];
        let w: Vec<f32> = vec![1.0, 2.0, 0.5];
        let (pi, pt, pw, out) = (
            m.upload(&logp)?,
            m.upload(&target)?,
            m.upload(&w)?,
            m.alloc(8)?,
        );
        k.nll_loss(
            Elem::F32,
            false,
            NllReduction::Mean,
            Some(4),
            3,
            pi,
            pt,
            Some(pw),
            -100,
            out,
            out.offset(4),
        )?;
        let got = f64s(&m.download::<f32>(out, 2)?);
        let num = -(logp[0] * 1.0 + logp[8] * 0.5 + logp[10] * 2.0) as f64;
        Ok(compare(
            "nll_loss 2d (weight, ignore_index)",
            &got,
            &[num / 3.5, 3.5],
            1e-6,
        ))
    });
    step("embedding_small_f32", &mut |m| {
        let weight: Vec<f32> = (0..15).map(|i| i as f32 * 0.5).collect();
        let ids: Vec<i64> = vec![4, 0, 2];
        let (pw, pi, out) = (m.upload(&weight)?, m.upload(&ids)?, m.alloc(9 * 4)?);
        k.index_select(Elem::F32, true, false, 1, 5, 3, 3, pw, pi, out)?;
        let want: Vec<f64> = ids
            .iter()
            .flat_map(|&r| (0..3).map(move |c| ((r * 3 + c) as f32 * 0.5) as f64))
            .collect();
        Ok(compare(
            "embedding_small_f32",
            &f64s(&m.download::<f32>(out, 9)?),
            &want,
            0.0,
        ))
    });
    step("sgemm (addmm)", &mut |m| {
        // out[4, 5] = bias + a[4, 6] @ wt where w is [5, 6] (nn.Linear): B = w.t().
        let w: Vec<f32> = (0..30)
            .map(|i| ((i * 7) % 11) as f32 * 0.25 - 1.0)
            .collect();
        let bias: Vec<f32> = (0..5).map(|i| i as f32 * 0.1).collect();
        let out_host: Vec<f32> = (0..20).map(|i| bias[i % 5]).collect();
        let (pa, pw, out) = (m.upload(&a)?, m.upload(&w)?, m.upload(&out_host)?);
        k.gemm(&Gemm {
            elem: Elem::F32,
            batch: 1,
            m: 4,
            n: 5,
            k: 6,
            alpha: 1.0,
            a: (pa, 6, 1, 0),
            b: (pw, 1, 6, 0),
            beta: 1.0,
            c: (out, 5, 0),
        })?;
        let mut want = Vec::new();
        for i in 0..4 {
            for j in 0..5 {
                let dot: f64 = (0..6)
                    .map(|q| a[i * 6 + q] as f64 * w[j * 6 + q] as f64)
                    .sum();
                want.push(dot + bias[j] as f64);
            }
        }
        Ok(compare(
            "sgemm (addmm)",
            &f64s(&m.download::<f32>(out, 20)?),
            &want,
            1e-5,
        ))
    });
    step("copy_f32_to_i64 (cast)", &mut |m| {
        let (pa, out) = (m.upload(&a)?, m.alloc(24 * 8)?);
        k.copy(
            Elem::F32,
            Elem::I64,
            &[24],
            Strided {
                ptr: pa,
                strides: &[1],
            },
            Strided {
                ptr: out,
                strides: &[1],
            },
        )?;
        let got: Vec<f64> = m
            .download::<i64>(out, 24)?
            .iter()
            .map(|&v| v as f64)
            .collect();
        let want: Vec<f64> = a.iter().map(|&x| x.trunc() as f64).collect();
        Ok(compare("copy_f32_to_i64 (cast)", &got, &want, 0.0))
    });
    step("uniform_f32 (Philox)", &mut |m| {
        let out = m.alloc(64 * 4)?;
        k.random_float(false, Elem::F32, 64, 42, 0, 0.0, 1.0, out)?;
        let got = m.download::<f32>(out, 64)?;
        let in_range = got.iter().all(|&v| (0.0..1.0).contains(&v));
        let distinct = got.windows(2).any(|w| w[0] != w[1]);
        let mut c = compare("uniform_f32 (Philox)", &[], &[], 0.0);
        if !(in_range && distinct) {
            c.passed = false;
            c.detail = Some(format!(
                "values outside [0, 1) or constant: {:?}",
                &got[..4]
            ));
        }
        Ok(c)
    });
    // Last: a launch that fails a device-side assert (a class index 3 of 3) must print
    // PyTorch's line and poison the context, and the next call must report it.
    step(
        "nll_loss 2d out-of-range target (device-side assert)",
        &mut |m| {
            let name = "nll_loss 2d out-of-range target (device-side assert)";
            let logp = vec![0.0f32; 12];
            let target: Vec<i64> = vec![0, 3, 1, 2];
            let (pi, pt, out) = (m.upload(&logp)?, m.upload(&target)?, m.alloc(8)?);
            k.nll_loss(
                Elem::F32,
                false,
                NllReduction::Mean,
                Some(4),
                3,
                pi,
                pt,
                None,
                -100,
                out,
                out.offset(4),
            )?;
            let reported = device.synchronize();
            let log = device.take_device_log();
            let mut c = compare(name, &[], &[], 0.0);
            if reported != Err(DeviceError::Assert) {
                c.passed = false;
                c.detail = Some(format!(
                    "synchronize after the bad launch returned {reported:?}, not the device-side assert"
                ));
            } else if !log.iter().any(|l| l == EXPECTED_ASSERT_LINE) {
                c.passed = false;
                c.detail = Some(format!("device log {log:?} lacks {EXPECTED_ASSERT_LINE:?}"));
            } else if device.launch(
                "fill_f32",
                super::launch::LaunchConfig::new(
                    super::launch::Dim3::x(1),
                    super::launch::Dim3::x(1),
                ),
                &super::launch::KernelArgs::new()
                    .arg(1i64)
                    .arg(0f32)
                    .arg(out),
            ) != Err(DeviceError::Assert)
            {
                c.passed = false;
                c.detail = Some("the context was not poisoned: a later launch succeeded".into());
            }
            Ok(c)
        },
    );
    SelfTestReport {
        device_kind: device.kind().name().into(),
        device_name: device.name(),
        checks,
    }
}

// ---------------------------------------------------------------- the cuda self-test

/// What a cached cuda self-test belongs to: this binary (path, size, mtime), the driver
/// version, the GPU (name, memory, architecture) and the NVRTC that compiles the kernels. Any
/// change runs the test again, so a failure is retried after a driver, binary or NVRTC change
/// (a new NVRTC compiles different code, and an older one may be the fix).
pub(crate) fn cuda_cache_key(
    probe: &super::probe::DriverProbe,
    ordinal: i32,
    nvrtc_version: Option<(i32, i32)>,
) -> Option<String> {
    let dev = probe.devices.iter().find(|d| d.ordinal == ordinal)?;
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let binary = format!("{}|{}|{}", exe.display(), meta.len(), mtime);
    let gpu = format!("{}|{}|{}", dev.name, dev.total_memory_bytes, dev.arch());
    Some(cache_key(
        &binary,
        probe.driver_version,
        &gpu,
        nvrtc_version,
    ))
}

/// The cache key of a (binary, driver, GPU, NVRTC) tuple.
pub fn cache_key(
    binary: &str,
    driver: Option<(i32, i32)>,
    gpu: &str,
    nvrtc: Option<(i32, i32)>,
) -> String {
    let text = format!("{binary}|{driver:?}|{gpu}|nvrtc {nvrtc:?}");
    format!("{:032x}", super::cache::fnv1a_128(&[text.as_bytes()]))
}

fn cache_file(dir: &std::path::Path, key: &str) -> std::path::PathBuf {
    dir.join(format!("selftest-{}.json", &key[..16.min(key.len())]))
}

/// The cached result for `key`, if any.
pub fn cached(dir: &std::path::Path, key: &str) -> Option<SelfTestReport> {
    #[derive(Deserialize)]
    struct Stored {
        key: String,
        report: SelfTestReport,
    }
    let text = std::fs::read_to_string(cache_file(dir, key)).ok()?;
    let s: Stored = serde_json::from_str(&text).ok()?;
    (s.key == key).then_some(s.report)
}

fn store(dir: &std::path::Path, key: &str, report: &SelfTestReport) {
    let text = serde_json::json!({ "key": key, "report": report }).to_string();
    let _ = std::fs::create_dir_all(dir);
    let path = cache_file(dir, key);
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() {
        let _ = std::fs::rename(&tmp, &path);
    }
}

/// When a cached result is used instead of testing again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retest {
    /// Any cached result for the key stands (start-up: a failure is retried only after a
    /// driver, binary or NVRTC change, so a broken GPU costs no start-up time).
    Never,
    /// A cached failure is tested again (doctor: its explanation is of the machine as it is now).
    Failures,
}

/// The self-test result for `key`: the cached one (see [`Retest`]), else what `run_test` says,
/// which is cached when it is a verdict (a report). `Err` (the test could not run: no process,
/// a deadline passed) is never cached, so the next start tries again.
pub fn cached_or_run(
    cache_dir: &std::path::Path,
    key: &str,
    retest: Retest,
    run_test: impl FnOnce() -> Result<SelfTestReport, String>,
) -> Result<SelfTestReport, String> {
    if let Some(r) = cached(cache_dir, key)
        && (retest == Retest::Never || r.passed())
    {
        return Ok(r);
    }
    let report = run_test()?;
    store(cache_dir, key, &report);
    Ok(report)
}

/// The longest the `__selftest` process may take: a cold kernel cache compiles every
/// kernels/*.cu file with NVRTC (about a second each on an idle machine), and a hung kernel
/// must not hang `run`, `check` or `doctor` (after this the process is killed).
pub(crate) const SELFTEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `command` to its end, or kills it once `deadline` has passed. `Ok` holds its
/// stdout and exit code; `Err` says it did not start or did not finish in time.
pub fn output_within(
    mut command: std::process::Command,
    deadline: std::time::Duration,
) -> Result<(Vec<u8>, Option<i32>), String> {
    use std::io::Read;
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("the self-test process did not start: {e}"))?;
    let mut stdout = child.stdout.take();
    // Read on a thread of its own, so a child that never closes its stdout cannot hold this
    // one past the deadline.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(out) = stdout.as_mut() {
            let _ = out.take(1 << 24).read_to_end(&mut buf);
        }
        let _ = tx.send(buf);
    });
    let started = std::time::Instant::now();
    let text = rx.recv_timeout(deadline);
    let left = deadline.saturating_sub(started.elapsed());
    let status = match text {
        Ok(_) => wait_until(&mut child, left),
        Err(_) => None,
    };
    match (text, status) {
        (Ok(text), Some(status)) => Ok((text, status.code())),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "the self-test did not finish within {} s and was stopped (a kernel that never \
                 ends, or a driver that does not answer)",
                deadline.as_secs()
            ))
        }
    }
}

/// Waits for `child` to exit for at most `left`.
fn wait_until(
    child: &mut std::process::Child,
    left: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let end = std::time::Instant::now() + left;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if std::time::Instant::now() < end => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            _ => return None,
        }
    }
}

/// The report a `__selftest` process printed (its last line that is one).
pub fn report_from_output(stdout: &[u8], code: Option<i32>) -> Result<SelfTestReport, String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| format!("the self-test process said nothing readable (exit {code:?})"))
}

/// The entry point of `cudatutor __selftest`: runs the self-test on GPU 0 in this process
/// (the failing launch poisons its context), with stdout/stderr redirected so the driver's
/// assert line is read back, and prints the report as JSON on the original stdout.
pub(crate) fn cuda_selftest_process(cache_dir: std::path::PathBuf) -> u8 {
    use std::io::Write;
    let (mut out, capture): (Box<dyn Write>, _) = match super::capture::redirect_device_output() {
        Some((protocol, capture)) => (Box::new(protocol), Some(capture)),
        None => (Box::new(std::io::stdout()), None),
    };
    let report = (|| -> Result<SelfTestReport, String> {
        let nvrtc = super::nvrtc::locate().map_err(|e| e.to_string())?;
        let mut device =
            super::real::CudaDevice::open(0, nvrtc, super::cache::PtxCache::new(cache_dir), false)
                .map_err(|e| e.to_string())?;
        match capture {
            Some(c) => device = device.with_log(c),
            None => return Err("cannot redirect stderr to read the driver's output".into()),
        }
        let sm = device.sm_count();
        Ok(run(&device, sm))
    })();
    let (report, code) = match report {
        Ok(r) => {
            let code = u8::from(!r.passed());
            (r, code)
        }
        Err(why) => (
            SelfTestReport {
                device_kind: "cuda".into(),
                device_name: String::new(),
                checks: vec![failed("opening the device", why)],
            },
            2,
        ),
    };
    let _ = writeln!(
        out,
        "{}",
        serde_json::to_string(&report).unwrap_or_default()
    );
    let _ = out.flush();
    code
}

/// The cuda self-test result for GPU 0: from the cache when this (binary, driver, GPU,
/// NVRTC) was tested before (see [`Retest`]), else by running `cudatutor __selftest` (a
/// process of its own, as the test poisons its context; killed after [`SELFTEST_DEADLINE`])
/// and caching what it says. Err: no GPU, or the test could not run.
pub(crate) fn cuda_selftest(
    cache_dir: &std::path::Path,
    nvrtc_version: Option<(i32, i32)>,
    retest: Retest,
) -> Result<SelfTestReport, String> {
    let probe = super::probe::probe_driver();
    if !probe.has_gpu() {
        return Err(probe.to_string());
    }
    let key =
        cuda_cache_key(&probe, 0, nvrtc_version).ok_or("cannot identify this binary or GPU")?;
    cached_or_run(cache_dir, &key, retest, || {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut command = std::process::Command::new(exe);
        command
            .arg("__selftest")
            .env("CUDATUTOR_CACHE_DIR", cache_dir);
        let (stdout, code) = output_within(command, SELFTEST_DEADLINE)?;
        report_from_output(&stdout, code)
    })
}

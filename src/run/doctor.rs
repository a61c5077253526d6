//! `cudatutor doctor`: what this machine offers the cuda backend, which backend `--backend auto`
//! picks and why, and what to install when something is missing. Never panics: every probe is
//! guarded (cudarc panics when a library is absent, see src/engine/cuda/probe.rs).

use crate::engine::cuda::nvrtc;
use crate::engine::cuda::probe::{self, DriverProbe};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// Everything doctor found.
pub struct Diagnosis {
    pub driver: DriverProbe,
    pub nvrtc: Result<nvrtc::Nvrtc, nvrtc::NvrtcError>,
    pub cublas: bool,
    pub cache_dir: Option<PathBuf>,
    pub cached_ptx_files: usize,
    /// Whether this build can launch kernels on a real GPU (the cuda runtime is compiled in).
    pub cuda_runtime_built: bool,
    /// The emulated device: its kernel files and entry points (None: not in this build), and
    /// its self-test.
    pub emulated: Option<EmulatedStatus>,
    /// The cuda self-test on GPU 0 (cached per binary, driver and GPU); None without a GPU.
    pub cuda_self_test: Option<Result<crate::engine::cuda::selftest::SelfTestReport, String>>,
}

/// What doctor says about the emulated device.
pub struct EmulatedStatus {
    pub files: usize,
    pub entries: usize,
    pub self_test: crate::engine::cuda::selftest::SelfTestReport,
}

impl EmulatedStatus {
    /// Builds a fresh emulated device and runs the self-test on it (about 0.1 s).
    pub fn gather() -> Option<EmulatedStatus> {
        use crate::engine::cuda::emulated::{self, EmulatedDevice};
        let names = emulated::entry_names();
        let device = EmulatedDevice::new(1 << 30, 1 << 30).ok()?;
        Some(EmulatedStatus {
            files: names.len(),
            entries: names.iter().map(|(_, e)| e.len()).sum(),
            self_test: crate::engine::cuda::selftest::run(&device, 132),
        })
    }
}

/// How the NVRTC version relates to the driver's CUDA version, for doctor.
pub fn nvrtc_vs_driver(nvrtc: (i32, i32), driver: (i32, i32)) -> String {
    let (n, d) = (nvrtc, driver);
    if n.0 > d.0 {
        format!(
            "NVRTC {}.{} is a newer major version than the driver's CUDA {}.{}: its CUBIN may \
             not load either; install the NVRTC wheel for CUDA {} (pip install \
             nvidia-cuda-nvrtc-cu{}) and point CUDATUTOR_NVRTC_LIB at it",
            n.0, n.1, d.0, d.1, d.0, d.0
        )
    } else if n > d {
        format!(
            "NVRTC {}.{} is newer than the driver's CUDA {}.{}: its PTX would be rejected \
             (a newer PTX ISA), so cudatutor loads CUBIN built for the GPU's own architecture, \
             which this driver runs",
            n.0, n.1, d.0, d.1
        )
    } else {
        format!(
            "NVRTC {}.{} and the driver's CUDA {}.{} agree (CUBIN for the GPU's own \
             architecture)",
            n.0, n.1, d.0, d.1
        )
    }
}

/// The kernel cache directory: `CUDATUTOR_CACHE_DIR`, else the XDG cache dir.
pub fn kernel_cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("CUDATUTOR_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "cudatutor").map(|d| d.cache_dir().join("ptx"))
}

fn cublas_present() -> bool {
    // SAFETY: only dlopens candidate library names; a panic inside is caught.
    catch_unwind(AssertUnwindSafe(|| unsafe {
        cudarc::cublas::sys::is_culib_present()
    }))
    .unwrap_or(false)
}

impl Diagnosis {
    pub fn gather() -> Diagnosis {
        let cache_dir = kernel_cache_dir();
        let cached_ptx_files = cache_dir
            .as_ref()
            .and_then(|d| std::fs::read_dir(d).ok())
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .filter(|e| {
                        e.path()
                            .extension()
                            .is_some_and(|x| x == "ptx" || x == "cubin")
                    })
                    .count()
            })
            .unwrap_or(0);
        let driver = probe::probe_driver();
        Diagnosis {
            cublas: driver.has_gpu() && cublas_present(),
            driver,
            nvrtc: nvrtc::locate(),
            cache_dir,
            cached_ptx_files,
            cuda_runtime_built: crate::run::CUDA_RUNTIME_BUILT,
            emulated: EmulatedStatus::gather(),
            cuda_self_test: None,
        }
        .with_cuda_self_test()
    }

    /// Runs (or reads the cached) cuda self-test when a GPU and NVRTC are present.
    fn with_cuda_self_test(mut self) -> Diagnosis {
        if self.driver.has_gpu()
            && self.nvrtc.is_ok()
            && let Some(dir) = &self.cache_dir
        {
            self.cuda_self_test = Some(crate::engine::cuda::selftest::cuda_selftest(dir));
        }
        self
    }

    /// Can `--backend cuda` run here? `Err` says why not.
    pub fn cuda_usable(&self) -> Result<(), String> {
        if !self.driver.has_gpu() {
            return Err(match self.driver.status {
                probe::DriverStatus::NoDriver => "there is no NVIDIA driver on this machine".into(),
                _ => format!("no usable GPU: {}", self.driver),
            });
        }
        if let Err(e) = &self.nvrtc {
            return Err(format!(
                "NVRTC is missing, so kernels cannot be compiled: {e}"
            ));
        }
        if let Some(Err(why)) = &self.cuda_self_test {
            return Err(format!("the GPU self-test could not run: {why}"));
        }
        if let Some(Ok(r)) = &self.cuda_self_test
            && let Some(why) = r.first_failure()
        {
            return Err(format!("the GPU self-test failed: {why}"));
        }
        if !self.cuda_runtime_built {
            return Err(
                "this build of cudatutor has no kernel launcher for real GPUs yet; \
                        exercises run on the simulated GPU"
                    .into(),
            );
        }
        Ok(())
    }

    /// The human-readable report `cudatutor doctor` prints.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cudatutor {} doctor", env!("CARGO_PKG_VERSION"));
        let _ = writeln!(s, "\nDriver and GPUs");
        let _ = writeln!(s, "  {}", self.driver.to_string().replace('\n', "\n  "));
        let _ = writeln!(s, "\nNVRTC (compiles kernels/*.cu at first use)");
        match &self.nvrtc {
            Ok(n) => {
                let place = n
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "the loader's search path".into());
                let _ = writeln!(
                    s,
                    "  NVRTC {} from {} (found by {})",
                    n.version_string(),
                    place,
                    n.found_by
                );
                if let Some(d) = self.driver.driver_version {
                    let _ = writeln!(s, "  {}", nvrtc_vs_driver(n.version, d));
                }
            }
            Err(e) => {
                let _ = writeln!(s, "  not found: {e}");
                let _ = writeln!(
                    s,
                    "  install: python3 -m pip install nvidia-cuda-nvrtc, then set\n  \
                     CUDATUTOR_NVRTC_LIB=<site-packages>/nvidia/cu13/lib/libnvrtc.so.13"
                );
            }
        }
        let _ = writeln!(
            s,
            "\ncuBLAS (matmul; a tiled kernel of our own is used without it)"
        );
        let _ = writeln!(
            s,
            "  {}",
            if self.cublas {
                "found"
            } else if self.driver.has_gpu() {
                "not found (pip install nvidia-cublas)"
            } else {
                "not checked (no GPU)"
            }
        );
        let _ = writeln!(
            s,
            "\nEmulated device (--backend emulated: kernels/*.cu run on the CPU)"
        );
        match &self.emulated {
            None => {
                let _ = writeln!(s, "  {}", crate::engine::cuda::emulated::NOT_BUILT);
            }
            Some(e) => {
                let _ = writeln!(
                    s,
                    "  built in: {} kernel files, {} entry points",
                    e.files, e.entries
                );
                let t = &e.self_test;
                match t.first_failure() {
                    None => {
                        let _ = writeln!(
                            s,
                            "  self-test passed: {} kernels agree with the host, and the failing \
                             launch printed PyTorch's assert line and poisoned the context",
                            t.checks.len().saturating_sub(1)
                        );
                    }
                    Some(why) => {
                        let _ = writeln!(s, "  self-test FAILED: {why}");
                    }
                }
                if let Err(why) = crate::run::emulated_usable() {
                    let _ = writeln!(s, "  not selectable yet: {why}");
                }
            }
        }
        let _ = writeln!(s, "\nKernel cache");
        match &self.cache_dir {
            Some(d) => {
                let _ = writeln!(
                    s,
                    "  {} ({} cached PTX/CUBIN files)",
                    d.display(),
                    self.cached_ptx_files
                );
            }
            None => {
                let _ = writeln!(s, "  no cache directory (set CUDATUTOR_CACHE_DIR)");
            }
        }
        let _ = writeln!(s, "\nBackend");
        match self.cuda_usable() {
            Ok(()) => {
                let _ = writeln!(
                    s,
                    "  --backend auto picks cuda: a usable GPU and NVRTC are present"
                );
            }
            Err(why) => {
                let _ = writeln!(s, "  --backend auto picks sim (the simulated GPU): {why}");
            }
        }
        s
    }
}

/// Doctor's section on `--backend pytorch`: which Python, whether it imports torch, its
/// version, CUDA availability and devices (runs the Python once: seconds).
pub fn render_python(opts: &crate::run::RunOptions) -> String {
    use crate::run::pytorch;
    let mut s = String::new();
    let program = pytorch::python_program(opts);
    let _ = writeln!(
        s,
        "\nReal PyTorch (--backend pytorch and `cudatutor diff`; {}; never chosen by auto)",
        pytorch::UNSANDBOXED_NOTE
    );
    let how = if opts.python.is_some() {
        "--python"
    } else if std::env::var_os(pytorch::PYTHON_ENV).is_some_and(|v| !v.is_empty()) {
        pytorch::PYTHON_ENV
    } else {
        "the default"
    };
    match pytorch::probe(&program) {
        Err(why) => {
            let _ = writeln!(s, "  python {} ({how}): {why}", program.display());
        }
        Ok(p) => {
            let _ = writeln!(
                s,
                "  python {} ({how}): Python {} at {}",
                program.display(),
                p.python,
                p.executable
            );
            match &p.torch {
                None => {
                    let _ = writeln!(
                        s,
                        "  torch does not import: {}",
                        p.error.as_deref().unwrap_or("no reason given")
                    );
                }
                Some(v) => {
                    let built = p
                        .cuda_version
                        .as_deref()
                        .map(|c| format!("built for CUDA {c}"))
                        .unwrap_or_else(|| "a CPU-only build".into());
                    let _ = writeln!(s, "  torch {v} imports ({built})");
                    if p.cuda {
                        let _ = writeln!(s, "  CUDA available: yes, {} device(s)", p.devices.len());
                        for d in &p.devices {
                            let _ = writeln!(
                                s,
                                "    cuda:{} {} ({:.1} GiB)",
                                d.index,
                                d.name,
                                d.memory as f64 / (1u64 << 30) as f64
                            );
                        }
                    } else {
                        let _ = writeln!(
                            s,
                            "  CUDA available: no{}",
                            p.cuda_error
                                .as_deref()
                                .map(|e| format!(" ({e})"))
                                .unwrap_or_default()
                        );
                    }
                }
            }
        }
    }
    s
}

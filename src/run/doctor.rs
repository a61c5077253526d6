//! `cudatutor doctor`: what this machine offers the cuda backend, which backend `--backend auto`
//! picks and why, and what to install when something is missing. Never panics: every probe is
//! guarded (cudarc panics when a library is absent, see src/engine/cuda/probe.rs).

use crate::engine::cuda::nvrtc;
use crate::engine::cuda::probe::{self, DriverProbe};
use crate::engine::cuda::selftest::Retest;
use crate::lesson::Lang;
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
            self_test: crate::engine::cuda::selftest::run(
                &device,
                crate::engine::random::cuda::DeviceShape::H200.sm_count,
            ),
        })
    }
}

/// How the NVRTC version relates to the driver's CUDA version, for doctor.
pub fn nvrtc_vs_driver(nvrtc: (i32, i32), driver: (i32, i32)) -> String {
    nvrtc_vs_driver_in(nvrtc, driver, Lang::En)
}

/// [`nvrtc_vs_driver`] in `lang`.
pub fn nvrtc_vs_driver_in(nvrtc: (i32, i32), driver: (i32, i32), lang: Lang) -> String {
    let (n, d) = (nvrtc, driver);
    let text = if n.0 > d.0 {
        "NVRTC {n0}.{n1} is a newer major version than the driver's CUDA {d0}.{d1}: its CUBIN may not load either; install the NVRTC wheel for CUDA {d0} (pip install nvidia-cuda-nvrtc-cu{d0}) and point CUDATUTOR_NVRTC_LIB at it"
    } else if n > d {
        "NVRTC {n0}.{n1} is newer than the driver's CUDA {d0}.{d1}: its PTX would be rejected (a newer PTX ISA), so cudatutor loads CUBIN built for the GPU's own architecture, which this driver runs"
    } else {
        "NVRTC {n0}.{n1} and the driver's CUDA {d0}.{d1} agree (CUBIN for the GPU's own architecture)"
    };
    tr(lang, text)
        .replace("{n0}", &n.0.to_string())
        .replace("{n1}", &n.1.to_string())
        .replace("{d0}", &d.0.to_string())
        .replace("{d1}", &d.1.to_string())
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
        // what `--backend cuda` needs (a cached failure tested again, so that what doctor
        // explains is the machine as it is now), then doctor's other sections
        let mut d = Diagnosis::gather_with(Retest::Failures);
        d.cached_ptx_files = d
            .cache_dir
            .as_ref()
            .and_then(|dir| std::fs::read_dir(dir).ok())
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
        d.cublas = d.driver.has_gpu() && cublas_present();
        d.emulated = EmulatedStatus::gather();
        d
    }

    /// The part of the diagnosis `--backend cuda` needs before a run (the driver, NVRTC, the
    /// cached self-test), without doctor's other sections (the emulated device's self-test,
    /// cuBLAS, the cache listing), which cost a short run a good part of its start-up.
    pub fn gather_for_cuda() -> Diagnosis {
        Diagnosis::gather_with(Retest::Never)
    }

    fn gather_with(retest: Retest) -> Diagnosis {
        Diagnosis {
            cublas: false,
            driver: probe::probe_driver(),
            nvrtc: nvrtc::locate(),
            cache_dir: super::kernel_cache_dir(),
            cached_ptx_files: 0,
            cuda_runtime_built: crate::run::CUDA_RUNTIME_BUILT,
            emulated: None,
            cuda_self_test: None,
        }
        .with_cuda_self_test(retest)
    }

    /// Runs (or reads the cached) cuda self-test when a GPU and NVRTC are present; without a
    /// cache directory it runs every time, in a temporary one.
    fn with_cuda_self_test(mut self, retest: Retest) -> Diagnosis {
        if self.driver.has_gpu()
            && let Ok(nvrtc) = &self.nvrtc
        {
            let dir = self
                .cache_dir
                .clone()
                .unwrap_or_else(|| std::env::temp_dir().join("cudatutor-kernels"));
            self.cuda_self_test = Some(crate::engine::cuda::selftest::cuda_selftest(
                &dir,
                Some(nvrtc.version),
                retest,
            ));
        }
        self
    }

    /// Whether `--backend auto` picks cuda with what this diagnosis found: the build allows it
    /// ([`crate::run::AUTO_PICKS_CUDA`]) and the GPU passed its self-test (trust, then use).
    pub fn auto_picks_cuda(&self) -> bool {
        crate::run::AUTO_PICKS_CUDA && self.cuda_usable().is_ok()
    }

    /// Can `--backend cuda` run here? `Err` says why not.
    pub fn cuda_usable(&self) -> Result<(), String> {
        self.cuda_usable_in(Lang::En)
    }

    /// [`Diagnosis::cuda_usable`] with the reason in `lang` (what the driver, NVRTC or the
    /// self-test said is quoted as they said it).
    pub(crate) fn cuda_usable_in(&self, lang: Lang) -> Result<(), String> {
        let t = |en| tr(lang, en);
        if !self.driver.has_gpu() {
            return Err(match self.driver.status {
                probe::DriverStatus::NoDriver => {
                    t("there is no NVIDIA driver on this machine").into()
                }
                _ => t("no usable GPU: {why}").replace("{why}", &self.driver.to_string()),
            });
        }
        if let Err(e) = &self.nvrtc {
            return Err(t("NVRTC is missing, so kernels cannot be compiled: {why}")
                .replace("{why}", &e.to_string()));
        }
        match &self.cuda_self_test {
            None => return Err(t("the GPU self-test has not run").into()),
            Some(Err(why)) => {
                return Err(t("the GPU self-test could not run: {why}").replace("{why}", why));
            }
            Some(Ok(r)) => {
                if let Some(why) = r.first_failure() {
                    return Err(t("the GPU self-test failed: {why} (tested again after a driver, NVRTC or cudatutor change, or by `cudatutor doctor`)")
                        .replace("{why}", &why.to_string()));
                }
            }
        }
        if !self.cuda_runtime_built {
            return Err(t("this build of cudatutor has no kernel launcher for real GPUs yet; exercises run on the simulated GPU").into());
        }
        Ok(())
    }

    /// The human-readable report `cudatutor doctor` prints, in English.
    pub fn render(&self) -> String {
        self.render_in(Lang::En)
    }

    /// The report in `lang`. What the driver, NVRTC and the self-tests say is quoted as they
    /// say it; every word of doctor's own is translated.
    pub fn render_in(&self, lang: Lang) -> String {
        let t = |en| tr(lang, en);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}",
            t("cudatutor {version} doctor").replace("{version}", env!("CARGO_PKG_VERSION"))
        );
        let _ = writeln!(s, "\n{}", t("Driver and GPUs"));
        let _ = writeln!(s, "  {}", self.driver.to_string().replace('\n', "\n  "));
        let _ = writeln!(s, "\n{}", t("NVRTC (compiles kernels/*.cu at first use)"));
        match &self.nvrtc {
            Ok(n) => {
                let place = n
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| t("the loader's search path").into());
                let _ = writeln!(
                    s,
                    "  {}",
                    t("NVRTC {version} from {place} (found by {how})")
                        .replace("{version}", &n.version_string())
                        .replace("{place}", &place)
                        .replace("{how}", &n.found_by.to_string())
                );
                if let Some(d) = self.driver.driver_version {
                    let _ = writeln!(s, "  {}", nvrtc_vs_driver_in(n.version, d, lang));
                }
            }
            Err(e) => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t("not found: {why}").replace("{why}", &e.to_string())
                );
                let _ = writeln!(
                    s,
                    "  {}\n  CUDATUTOR_NVRTC_LIB=<site-packages>/nvidia/cu13/lib/libnvrtc.so.13",
                    t("install: python3 -m pip install nvidia-cuda-nvrtc, then set")
                );
            }
        }
        let _ = writeln!(
            s,
            "\n{}",
            t("cuBLAS (matmul; a tiled kernel of our own is used without it)")
        );
        let _ = writeln!(
            s,
            "  {}",
            t(if self.cublas {
                "found"
            } else if self.driver.has_gpu() {
                "not found (pip install nvidia-cublas)"
            } else {
                "not checked (no GPU)"
            })
        );
        let _ = writeln!(
            s,
            "\n{}",
            t("Emulated device (--backend emulated: kernels/*.cu run on the CPU)")
        );
        match &self.emulated {
            None => {
                let _ = writeln!(s, "  {}", crate::engine::cuda::emulated::NOT_BUILT);
            }
            Some(e) => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t("built in: {files} kernel files, {entries} entry points")
                        .replace("{files}", &e.files.to_string())
                        .replace("{entries}", &e.entries.to_string())
                );
                let t = &e.self_test;
                match t.first_failure() {
                    None => {
                        let _ = writeln!(
                            s,
                            "  {}",
                            tr(lang, "self-test passed: {n} kernels agree with the host, and the failing launch printed PyTorch's assert line and poisoned the context")
                                .replace("{n}", &t.checks.len().saturating_sub(1).to_string())
                        );
                    }
                    Some(why) => {
                        let _ = writeln!(
                            s,
                            "  {}",
                            tr(lang, "self-test FAILED: {why}").replace("{why}", &why.to_string())
                        );
                    }
                }
                if let Err(why) = crate::run::emulated_usable() {
                    let _ = writeln!(
                        s,
                        "  {}",
                        tr(lang, "not selectable yet: {why}").replace("{why}", &why)
                    );
                }
            }
        }
        let _ = writeln!(s, "\n{}", t("Kernel cache"));
        match &self.cache_dir {
            Some(d) => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t("{dir} ({n} cached PTX/CUBIN files)")
                        .replace("{dir}", &d.display().to_string())
                        .replace("{n}", &self.cached_ptx_files.to_string())
                );
            }
            None => {
                let _ = writeln!(s, "  {}", t("no cache directory (set CUDATUTOR_CACHE_DIR)"));
            }
        }
        let _ = writeln!(s, "\n{}", t("Backend"));
        match self.cuda_usable_in(lang) {
            Ok(()) if crate::run::AUTO_PICKS_CUDA => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t("--backend auto picks cuda: the GPU passed its self-test")
                );
            }
            Ok(()) => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t(
                        "--backend cuda can run here (the GPU passed its self-test); --backend auto still picks sim in this build"
                    )
                );
            }
            Err(why) => {
                let _ = writeln!(
                    s,
                    "  {}",
                    t("--backend auto picks sim (the simulated GPU): {why}").replace("{why}", &why)
                );
                if let Some(Ok(r)) = &self.cuda_self_test {
                    self.render_self_test_failures(&mut s, r, lang);
                }
            }
        }
        s
    }

    /// Every check of a failed cuda self-test that disagreed, one a line, and what to do.
    fn render_self_test_failures(
        &self,
        s: &mut String,
        r: &crate::engine::cuda::selftest::SelfTestReport,
        lang: Lang,
    ) {
        let failed: Vec<_> = r.checks.iter().filter(|c| !c.passed).collect();
        if failed.is_empty() {
            return;
        }
        let _ = writeln!(
            s,
            "  {}",
            tr(lang, "GPU self-test on {gpu}: {n} of {total} checks failed")
                .replace("{gpu}", &r.device_name)
                .replace("{n}", &failed.len().to_string())
                .replace("{total}", &r.checks.len().to_string())
        );
        for c in failed {
            let why = c.detail.clone().unwrap_or_else(|| {
                format!("|device - host| = {:e} > {:e}", c.max_abs_diff, c.tolerance)
            });
            let _ = writeln!(s, "    {}: {why}", c.kernel);
        }
        let _ = writeln!(
            s,
            "  {}",
            tr(
                lang,
                "cudatutor keeps using the simulated GPU. The test runs again by itself after a driver, NVRTC or cudatutor update; `cudatutor doctor` runs it again now."
            )
        );
    }
}

/// Doctor's section on `--backend pytorch` in `lang`: which Python, whether it imports torch,
/// its version, CUDA availability and devices (runs the Python once: seconds).
pub(crate) fn render_python_in(opts: &crate::run::RunOptions, lang: Lang) -> String {
    use crate::run::pytorch;
    let t = |en| tr(lang, en);
    let mut s = String::new();
    let (program, source) = pytorch::python_choice(opts);
    let _ = writeln!(
        s,
        "\n{}",
        t("Real PyTorch (--backend pytorch and `cudatutor diff`; {note}; never chosen by auto)")
            .replace("{note}", pytorch::unsandboxed_note(lang))
    );
    let how = match source {
        pytorch::PythonSource::Flag => "--python",
        pytorch::PythonSource::Env => pytorch::PYTHON_ENV,
        pytorch::PythonSource::Launcher => t("the Python that ran `python -m cudatutor`"),
        pytorch::PythonSource::BesideBinary => t("installed beside cudatutor, in its environment"),
        pytorch::PythonSource::Path => t("the default"),
    };
    let program_how = t("python {program} ({how})")
        .replace("{program}", &program.display().to_string())
        .replace("{how}", how);
    match pytorch::probe(&program) {
        Err(why) => {
            let _ = writeln!(s, "  {program_how}{}{why}", t(": "));
        }
        Ok(p) => {
            let _ = writeln!(
                s,
                "  {program_how}{}{}",
                t(": "),
                t("Python {version} at {path}")
                    .replace("{version}", &p.python)
                    .replace("{path}", &p.executable)
            );
            match &p.torch {
                None => {
                    let _ = writeln!(
                        s,
                        "  {}",
                        t("torch does not import: {why}")
                            .replace("{why}", p.error.as_deref().unwrap_or(t("no reason given")))
                    );
                }
                Some(v) => {
                    let built = p
                        .cuda_version
                        .as_deref()
                        .map(|c| t("built for CUDA {version}").replace("{version}", c))
                        .unwrap_or_else(|| t("a CPU-only build").into());
                    let _ = writeln!(
                        s,
                        "  {}",
                        t("torch {version} imports ({built})")
                            .replace("{version}", v)
                            .replace("{built}", &built)
                    );
                    if p.cuda {
                        let _ = writeln!(
                            s,
                            "  {}",
                            t("CUDA available: yes, {n} device(s)")
                                .replace("{n}", &p.devices.len().to_string())
                        );
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
                        let why = p
                            .cuda_error
                            .as_deref()
                            .map(|e| t(" ({why})").replace("{why}", e))
                            .unwrap_or_default();
                        let _ = writeln!(s, "  {}{why}", t("CUDA available: no"));
                    }
                }
            }
        }
    }
    s
}

/// Doctor's words: the English text and its Chinese, `{name}` placeholders the same in both.
const WORDS: &[(&str, &str)] = &[
    ("cudatutor {version} doctor", "cudatutor {version} 环境检查"),
    ("Driver and GPUs", "驱动与 GPU"),
    (
        "NVRTC (compiles kernels/*.cu at first use)",
        "NVRTC（首次使用时编译 kernels/*.cu）",
    ),
    ("the loader's search path", "动态链接器的搜索路径"),
    (
        "NVRTC {version} from {place} (found by {how})",
        "NVRTC {version}，来自 {place}（通过 {how} 找到）",
    ),
    ("not found: {why}", "未找到：{why}"),
    (
        "install: python3 -m pip install nvidia-cuda-nvrtc, then set",
        "安装：python3 -m pip install nvidia-cuda-nvrtc，然后设置",
    ),
    (
        "cuBLAS (matmul; a tiled kernel of our own is used without it)",
        "cuBLAS（矩阵乘法；没有它时使用我们自己的分块内核）",
    ),
    ("found", "已找到"),
    (
        "not found (pip install nvidia-cublas)",
        "未找到（pip install nvidia-cublas）",
    ),
    ("not checked (no GPU)", "未检查（没有 GPU）"),
    (
        "Emulated device (--backend emulated: kernels/*.cu run on the CPU)",
        "仿真设备（--backend emulated：kernels/*.cu 在 CPU 上运行）",
    ),
    (
        "built in: {files} kernel files, {entries} entry points",
        "已内置：{files} 个内核文件，{entries} 个入口",
    ),
    (
        "self-test passed: {n} kernels agree with the host, and the failing launch printed PyTorch's assert line and poisoned the context",
        "自检通过：{n} 个内核与主机的结果一致，出错的启动打印了 PyTorch 的断言行并使上下文失效",
    ),
    ("self-test FAILED: {why}", "自检失败：{why}"),
    ("not selectable yet: {why}", "暂时不能选用：{why}"),
    ("Kernel cache", "内核缓存"),
    (
        "{dir} ({n} cached PTX/CUBIN files)",
        "{dir}（已缓存 {n} 个 PTX/CUBIN 文件）",
    ),
    (
        "no cache directory (set CUDATUTOR_CACHE_DIR)",
        "没有缓存目录（请设置 CUDATUTOR_CACHE_DIR）",
    ),
    ("Backend", "后端"),
    (
        "--backend auto picks cuda: the GPU passed its self-test",
        "--backend auto 选择 cuda：GPU 通过了自检",
    ),
    (
        "GPU self-test on {gpu}: {n} of {total} checks failed",
        "{gpu} 上的 GPU 自检：{total} 项检查中有 {n} 项失败",
    ),
    (
        "cudatutor keeps using the simulated GPU. The test runs again by itself after a driver, NVRTC or cudatutor update; `cudatutor doctor` runs it again now.",
        "cudatutor 继续使用模拟的 GPU。驱动、NVRTC 或 cudatutor 更新后会自动重新自检；`cudatutor doctor` 会立即重新自检。",
    ),
    ("the GPU self-test has not run", "GPU 自检尚未运行"),
    (
        "the GPU self-test failed: {why} (tested again after a driver, NVRTC or cudatutor change, or by `cudatutor doctor`)",
        "GPU 自检失败：{why}（驱动、NVRTC 或 cudatutor 变化后，或运行 `cudatutor doctor` 时会重新自检）",
    ),
    (
        "--backend cuda can run here (the GPU passed its self-test); --backend auto still picks sim in this build",
        "这里可以用 --backend cuda（GPU 通过了自检）；此版本的 --backend auto 仍然选择 sim",
    ),
    (
        "--backend auto picks sim (the simulated GPU): {why}",
        "--backend auto 选择 sim（模拟的 GPU）：{why}",
    ),
    (
        "there is no NVIDIA driver on this machine",
        "这台机器上没有 NVIDIA 驱动",
    ),
    ("no usable GPU: {why}", "没有可用的 GPU：{why}"),
    (
        "NVRTC is missing, so kernels cannot be compiled: {why}",
        "缺少 NVRTC，无法编译内核：{why}",
    ),
    (
        "the GPU self-test could not run: {why}",
        "GPU 自检无法运行：{why}",
    ),
    (
        "this build of cudatutor has no kernel launcher for real GPUs yet; exercises run on the simulated GPU",
        "这个版本的 cudatutor 还没有在真实 GPU 上启动内核的功能；练习在模拟的 GPU 上运行",
    ),
    (
        "NVRTC {n0}.{n1} is a newer major version than the driver's CUDA {d0}.{d1}: its CUBIN may not load either; install the NVRTC wheel for CUDA {d0} (pip install nvidia-cuda-nvrtc-cu{d0}) and point CUDATUTOR_NVRTC_LIB at it",
        "NVRTC {n0}.{n1} 的主版本比驱动的 CUDA {d0}.{d1} 新：它生成的 CUBIN 可能也无法加载；请安装 CUDA {d0} 的 NVRTC wheel（pip install nvidia-cuda-nvrtc-cu{d0}），并把 CUDATUTOR_NVRTC_LIB 指向它",
    ),
    (
        "NVRTC {n0}.{n1} is newer than the driver's CUDA {d0}.{d1}: its PTX would be rejected (a newer PTX ISA), so cudatutor loads CUBIN built for the GPU's own architecture, which this driver runs",
        "NVRTC {n0}.{n1} 比驱动的 CUDA {d0}.{d1} 新：它生成的 PTX 会被拒绝（PTX ISA 更新），所以 cudatutor 加载为 GPU 自身架构编译的 CUBIN，这个驱动可以运行",
    ),
    (
        "NVRTC {n0}.{n1} and the driver's CUDA {d0}.{d1} agree (CUBIN for the GPU's own architecture)",
        "NVRTC {n0}.{n1} 与驱动的 CUDA {d0}.{d1} 一致（为 GPU 自身架构编译 CUBIN）",
    ),
    (
        "Real PyTorch (--backend pytorch and `cudatutor diff`; {note}; never chosen by auto)",
        "真实的 PyTorch（--backend pytorch 和 `cudatutor diff`；{note}；auto 从不选择它）",
    ),
    ("the default", "默认"),
    (
        "the Python that ran `python -m cudatutor`",
        "运行 `python -m cudatutor` 的 Python",
    ),
    (
        "installed beside cudatutor, in its environment",
        "与 cudatutor 装在同一环境中",
    ),
    ("python {program} ({how})", "python {program}（{how}）"),
    (": ", "："),
    (
        "Python {version} at {path}",
        "Python {version}，位于 {path}",
    ),
    ("torch does not import: {why}", "无法导入 torch：{why}"),
    ("no reason given", "没有给出原因"),
    ("built for CUDA {version}", "为 CUDA {version} 构建"),
    ("a CPU-only build", "仅 CPU 版本"),
    (
        "torch {version} imports ({built})",
        "torch {version} 可以导入（{built}）",
    ),
    (
        "CUDA available: yes, {n} device(s)",
        "CUDA 可用：是，{n} 个设备",
    ),
    ("CUDA available: no", "CUDA 可用：否"),
    (" ({why})", "（{why}）"),
];

/// Doctor's text `en` in `lang` (`en` itself in English; a text missing from [`WORDS`] stays
/// English, which the tests forbid).
fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => WORDS
            .iter()
            .find(|(e, _)| *e == en)
            .map_or(en, |(_, zh)| zh),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_its_placeholders_in_chinese() {
        for (en, zh) in WORDS {
            let names = |t: &str| {
                let mut v: Vec<String> = t
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(names(en), names(zh), "{en}");
            assert_ne!(en, zh);
        }
    }

    #[test]
    fn the_nvrtc_verdicts_are_translated() {
        for (n, d) in [((13, 5), (13, 0)), ((14, 0), (13, 0)), ((13, 0), (13, 0))] {
            let zh = nvrtc_vs_driver_in(n, d, Lang::Zh);
            assert_ne!(zh, nvrtc_vs_driver(n, d));
            assert!(!zh.contains('{'), "{zh}");
        }
        assert!(nvrtc_vs_driver((13, 5), (13, 0)).contains("PTX would be rejected"));
    }
}

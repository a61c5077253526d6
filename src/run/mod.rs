//! Run one script (or one exercise with its checks) and produce a [`RunReport`]; the worker
//! subprocess that isolates real-GPU runs lives here too.

mod check_containers;
mod check_env;
mod check_text;
pub mod checks;
pub mod contain;
pub mod diff;
pub mod doctor;
pub mod isolate;
pub mod pytorch;
mod same_value;
mod session;
pub(crate) mod sigint;
mod unexpected;
pub mod warm_worker;
pub mod worker;

// What a run produced lives beneath run (progress keeps the last run's report), and is named
// here as well so callers need not know that.
/// The name of the simulated GPU (the engine's), for those above run.
pub use crate::engine::runtime::SIM_DEVICE_NAME;
pub use crate::run_report as report;
pub use crate::run_report::{
    AssertGap, CheckResult, DeviceMemory, DeviceUsage, ErrorReport, MemoryReport, OpKind, OpStatus,
    RunReport, TimelineEntry, assert_gap,
};
/// The longest script a run takes (the interpreter's limit), for readers of script files.
pub use crate::script::MAX_SOURCE;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which engine backend runs CUDA tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendChoice {
    /// cuda when a usable GPU is present, else sim.
    #[default]
    Auto,
    Sim,
    Cuda,
    /// The real kernels (kernels/*.cu) compiled for the CPU: the CI proof of the kernels and a
    /// teaching mode ("these are the real kernels"); never picked by `auto`.
    Emulated,
    /// The machine's own Python and PyTorch (`--python` / `CUDATUTOR_PYTHON` / `python3`), run
    /// UNSANDBOXED; never picked by `auto`.
    Pytorch,
}

/// The most GPU memory a device may be given (1 PiB): PyTorch reports memory as signed 64-bit
/// counts, and sixteen such devices still add up far below that, so no count can wrap.
pub(crate) const MAX_GPU_MEMORY: u64 = 1 << 50;

/// Interpreter steps allowed per second of the wall limit: more than the interpreter runs on
/// this machine (about 13 million a second), so the wall limit is what stops a long loop and
/// a loop CPython finishes in a few seconds is not cut short (`--time-limit` scales both).
pub(crate) const STEPS_PER_SECOND: u64 = 20_000_000;

/// The step limit that goes with a wall limit ([`STEPS_PER_SECOND`]).
pub(crate) fn steps_for(wall: std::time::Duration) -> u64 {
    (wall.as_secs_f64() * STEPS_PER_SECOND as f64).max(STEPS_PER_SECOND as f64) as u64
}

/// How to run a script. `Default` is what `cudatutor run FILE` uses without flags. It is also
/// what the parent sends the worker subprocess (worker.rs, a JSON line): the cancel flag and
/// the Python of `--backend pytorch` stay in the parent, which kills the worker to cancel.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RunOptions {
    pub backend: BackendChoice,
    /// Number of (virtual) GPUs on the sim backend.
    pub gpus: u32,
    /// Capacity of each simulated GPU, in bytes.
    pub gpu_memory: u64,
    /// Per-process GPU memory cap (`--gpu-mem-limit`), for labs sharing one card.
    pub mem_limit: Option<u64>,
    /// CUDA_LAUNCH_BLOCKING=1 from the command line or the UI's `b` toggle.
    pub launch_blocking: bool,
    /// Environment the script sees in `os.environ` (CUDA_LAUNCH_BLOCKING may be set here).
    pub env: Vec<(String, String)>,
    /// The file name tracebacks show (`exercise.py` for exercises).
    pub filename: String,
    /// `sys.argv[0]`: the script path as typed on the command line (None: `filename`).
    #[serde(default)]
    pub argv0: Option<String>,
    /// Interpreter step limit (statements + calls) before the run is stopped.
    pub max_steps: u64,
    /// Wall-clock limit for the run (whole milliseconds on the wire).
    #[serde(rename = "max_wall_ms", with = "wall_ms")]
    pub max_wall: std::time::Duration,
    /// Set from another thread to stop the run (the UI's Ctrl-C); it ends with KeyboardInterrupt.
    #[serde(skip)]
    pub cancel: Option<Arc<AtomicBool>>,
    /// What the checks need to know about the exercise besides its code (their language,
    /// the predicted variables); the default suits a plain script.
    #[serde(default)]
    pub exercise: ExerciseContext,
    /// The Python interpreter of `--backend pytorch` (`--python`); None: `CUDATUTOR_PYTHON`,
    /// else the Python cudatutor is installed with, else `python3` (pytorch::python_choice).
    #[serde(skip)]
    pub python: Option<std::path::PathBuf>,
    /// Host folders the script may read (`run --allow-read DIR`), read-only; empty: none.
    #[serde(default)]
    pub allow_read: Vec<std::path::PathBuf>,
}

/// [`RunOptions::max_wall`] as whole milliseconds (a limit past `u64::MAX` ms is that many).
mod wall_ms {
    use std::time::Duration;

    pub(super) fn serialize<S: serde::Serializer>(
        wall: &Duration,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(wall.as_millis()).unwrap_or(u64::MAX))
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Duration, D::Error> {
        let ms: u64 = serde::Deserialize::deserialize(d)?;
        Ok(Duration::from_millis(ms))
    }
}

/// What grading an exercise needs besides its code and check block.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExerciseContext {
    /// `en` or `zh`: the language of the messages the check runner writes itself ("fix the
    /// SyntaxError first", "your line 7 raised …"). Empty means English.
    #[serde(default)]
    pub lang: String,
    /// Each predicted variable with the source of its starting value (`("origin", "0")`):
    /// the report's `prediction_pending` says whether one is still at that value.
    #[serde(default)]
    pub predict: Vec<(String, String)>,
    /// The exercise's starting code: predictions are judged against the run of the code as
    /// given (the checks' `code_unchanged()`, [`crate::lesson::predict`]).
    #[serde(default)]
    pub start_code: String,
}

impl ExerciseContext {
    /// The context of a lesson's exercise; `lang` is the lesson's language.
    pub fn of(exercise: &crate::lesson::Exercise, lang: &str) -> ExerciseContext {
        ExerciseContext {
            lang: lang.to_string(),
            predict: exercise
                .predict
                .iter()
                .filter_map(|name| {
                    crate::lesson::predicted_start(&exercise.start_code, name)
                        .map(|start| (name.clone(), start))
                })
                .collect(),
            start_code: exercise.start_code.clone(),
        }
    }

    /// What grading makes of this attempt's predictions (computed ones are refused, and
    /// whether the code is still the starting code apart from them).
    pub(crate) fn judge_predictions(
        &self,
        code: &str,
    ) -> crate::lesson::predict::PredictionVerdict {
        let names: Vec<String> = self.predict.iter().map(|(n, _)| n.clone()).collect();
        crate::lesson::predict::judge(code, &self.start_code, &names, &self.lang)
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            backend: BackendChoice::Auto,
            gpus: 1,
            gpu_memory: crate::engine::runtime::SIM_GPU_MEMORY,
            mem_limit: None,
            launch_blocking: false,
            env: Vec::new(),
            filename: "exercise.py".to_string(),
            argv0: None,
            max_steps: steps_for(std::time::Duration::from_secs(10)),
            max_wall: std::time::Duration::from_secs(10),
            cancel: None,
            exercise: ExerciseContext::default(),
            python: None,
            allow_read: Vec::new(),
        }
    }
}

/// Whether this build runs exercises on real GPUs (the cuda device wired into the engine).
/// Until it does, `auto` always picks sim and `--backend cuda` is refused with a clear message
/// (doctor says so too).
pub(crate) const CUDA_RUNTIME_BUILT: bool = ENGINE_RUNS_ON_DEVICES;

/// Can the backend `opts` asks for run here? `Err` is the message for `--backend cuda` on a
/// machine where it cannot (exit 2), naming what is missing.
pub(crate) fn backend_available(opts: &RunOptions) -> Result<(), String> {
    match opts.backend {
        BackendChoice::Cuda => {
            // once per process (`run` asks before it starts the worker and again on the way)
            static VERDICT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
            VERDICT
                .get_or_init(|| doctor::Diagnosis::gather_for_cuda().cuda_usable())
                .clone()
                .map_err(|why| format!("--backend cuda cannot run here: {why}. Run `cudatutor doctor` for details, or use --backend sim."))
        }
        BackendChoice::Emulated => emulated_usable().map_err(|why| {
            format!("--backend emulated cannot run here: {why}. Use --backend sim.")
        }),
        BackendChoice::Pytorch => pytorch::python_found(&pytorch::python_program(opts))
            .map(|_| ())
            .map_err(|why| format!("--backend pytorch cannot run here: {why}")),
        BackendChoice::Auto | BackendChoice::Sim => Ok(()),
    }
}

/// Whether this build's engine runs ops on the emulated and cuda devices (the device trait's
/// GPU implementation, `engine::cuda::gpu_storage`, is wired into the session's runtime).
pub(crate) const ENGINE_RUNS_ON_DEVICES: bool = true;

/// Whether `--backend auto` may pick cuda: it does once the GPU passed the self-test on this
/// (binary, driver, GPU, NVRTC), which runs the kernels against host values and checks that a
/// failing launch raises PyTorch's error. The self-test is the gate, so no particular GPU run
/// is needed to turn it on; `false` would keep `auto` on the sim everywhere.
pub(crate) const AUTO_PICKS_CUDA: bool = true;

/// Can `--backend emulated` run here? `Err` says why not.
pub(crate) fn emulated_usable() -> Result<(), String> {
    if !crate::engine::cuda::emulated::built() {
        return Err(crate::engine::cuda::emulated::NOT_BUILT.into());
    }
    if !ENGINE_RUNS_ON_DEVICES {
        return Err(
            "the emulated device is built (kernels/*.cu on the CPU), but this build's \
                    engine does not route tensor ops to it yet"
                .into(),
        );
    }
    Ok(())
}

/// Runs a plain script.
pub fn run_script(source: &str, opts: &RunOptions) -> RunReport {
    run_exercise(source, None, opts)
}

/// Runs an exercise's code, then its check block (if any) in the same namespace. Real-GPU runs
/// go through the worker subprocess; simulated ones run in this process.
pub fn run_exercise(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    let isolated = match opts.backend {
        BackendChoice::Pytorch => return pytorch::run_exercise(code, check, opts),
        BackendChoice::Sim => false,
        BackendChoice::Cuda | BackendChoice::Emulated => true,
        BackendChoice::Auto => cuda_usable_here(),
    };
    if isolated {
        if let Err(why) = backend_available(opts) {
            return worker::failed_report(&why);
        }
        return warm_worker::run(code, check, opts);
    }
    run_exercise_in_process(code, check, opts)
}

/// The stack of a run's thread: deeply recursive scripts must hit the interpreter's
/// RecursionError, not overflow the Rust stack.
const RUN_STACK_BYTES: usize = 256 << 20;

thread_local! {
    /// True on a thread [`spawn_run`] started: a run there needs no thread or guard of its own.
    static ON_RUN_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// How many run threads this thread started (the tests count them).
    static RUN_THREADS_STARTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Starts `work` on a run thread (a large stack) inside the one panic guard of a run, then
/// hands its result to `done` on that thread: `Err` is the message of a panic inside `work` (a
/// bug in cudatutor), which is neither printed over the pager nor seen by its terminal hook
/// (see contain.rs). Every in-process run goes through here, once: the pager starts its runs
/// with it, and [`run_exercise`] called on such a thread runs right there.
pub(crate) fn spawn_run<T: 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    done: impl FnOnce(Result<T, String>) + Send + 'static,
) -> std::io::Result<()> {
    #[cfg(test)]
    RUN_THREADS_STARTED.with(|n| n.set(n.get() + 1));
    std::thread::Builder::new()
        .name("cudatutor-run".into())
        .stack_size(RUN_STACK_BYTES)
        .spawn(move || {
            ON_RUN_THREAD.with(|on| on.set(true));
            crate::engine::hostbuf::prepare_run_thread_heap();
            done(contain::contain(work));
            // after the report: a process that exits once it is printed does not wait for this
            let _ = contain::contain(|| drop(LEFT_TO_FREE.with(|l| l.take())));
        })
        .map(drop)
}

thread_local! {
    /// What finished runs on this run thread leave to free after their reports.
    static LEFT_TO_FREE: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Frees a finished run's heap once its report has been handed on, when the run is on a run
/// thread ([`spawn_run`]); elsewhere at once.
pub(crate) fn free_after_report(heap: Box<dyn std::any::Any>) {
    if ON_RUN_THREAD.with(std::cell::Cell::get) {
        LEFT_TO_FREE.with(|l| l.borrow_mut().push(heap));
    } else {
        drop(heap);
    }
}

/// How much Rust stack the interpreter may use on this thread: a quarter of a run thread's
/// (so CPython's 1000 frames, and more under `sys.setrecursionlimit`, reach RecursionError
/// by the frame count whatever each frame costs in this build), None elsewhere (the
/// interpreter's default, sized for an 8 MiB main thread).
pub(crate) fn run_thread_stack_limit() -> Option<usize> {
    ON_RUN_THREAD
        .with(std::cell::Cell::get)
        .then_some(RUN_STACK_BYTES / 4)
}

/// Runs in this process: right here on a run thread (the caller's [`spawn_run`] guards it),
/// else on a run thread of its own, waiting for its report.
pub fn run_exercise_in_process(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    if ON_RUN_THREAD.with(std::cell::Cell::get) {
        return run_on_this_thread(code, check, opts);
    }
    let code = code.to_string();
    let check = check.map(str::to_string);
    let opts = opts.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let started = spawn_run(
        move || run_on_this_thread(&code, check.as_deref(), &opts),
        move |result| {
            let report = result.unwrap_or_else(|why| {
                internal_error_report(&contain::panic_message(&why), Backend::Sim.name())
            });
            let _ = tx.send(report);
        },
    );
    match started.map(|()| rx.recv()) {
        Ok(Ok(report)) => report,
        Ok(Err(_)) => internal_error_report(
            &contain::panic_message("the run's thread ended without a report"),
            Backend::Sim.name(),
        ),
        Err(e) => internal_error_report(
            &format!("could not start the run: {e}"),
            Backend::Sim.name(),
        ),
    }
}

/// The engine session of an in-process run, on a run thread.
fn run_on_this_thread(code: &str, check: Option<&str>, opts: &RunOptions) -> RunReport {
    #[cfg(feature = "fault-injection")]
    crate::fault_injection::panic_in_run_if_requested();
    #[cfg(feature = "fault-injection")]
    crate::fault_injection::abort_in_run_if_requested(code);
    session::run(code, check, opts)
}

/// The report of a run that failed inside cudatutor (a panic, a run that could not start):
/// an error naming the backend, and `internal_error` set so that grading never mistakes it
/// for a result of the learner's code.
pub fn internal_error_report(message: &str, backend: &str) -> RunReport {
    let mut report = worker::failed_report(message);
    report.backend = backend.to_string();
    report.internal_error = Some(message.to_string());
    report
}

/// The backend a run is on, as a value (the report's `backend` field names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    #[default]
    Sim,
    Cuda,
    Emulated,
    Pytorch,
}

impl Backend {
    /// The name `RunReport::backend` and the status bar use: `sim`, `cuda`, …
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sim => "sim",
            Backend::Cuda => "cuda",
            Backend::Emulated => "emulated",
            Backend::Pytorch => "pytorch",
        }
    }
}

/// Where exercises run, for the status bar: the backend and what it runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendLabel {
    pub backend: Backend,
    /// e.g. "Simulated H200 (modelled) ×2", "NVIDIA H200".
    pub device: String,
}

impl std::fmt::Display for BackendLabel {
    /// e.g. "sim · Simulated H200 (modelled)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} · {}", self.backend.name(), self.device)
    }
}

/// What the status bar says about where exercises run, e.g. "sim · Simulated H200 (modelled)".
pub fn backend_label(opts: &RunOptions) -> BackendLabel {
    let cuda = match opts.backend {
        BackendChoice::Pytorch => {
            return BackendLabel {
                backend: Backend::Pytorch,
                device: pytorch::label(opts),
            };
        }
        BackendChoice::Sim => false,
        BackendChoice::Emulated => {
            return BackendLabel {
                backend: Backend::Emulated,
                device: crate::engine::cuda::emulated::EMULATED_DEVICE_NAME.to_string(),
            };
        }
        BackendChoice::Cuda | BackendChoice::Auto => cuda_usable_here(),
    };
    if cuda {
        let probe = crate::engine::cuda::probe::probe_driver();
        let name = probe
            .devices
            .first()
            .map(|d| d.name.clone())
            .unwrap_or_default();
        BackendLabel {
            backend: Backend::Cuda,
            device: name,
        }
    } else {
        let n = if opts.gpus > 1 {
            format!(" ×{}", opts.gpus)
        } else {
            String::new()
        };
        BackendLabel {
            backend: Backend::Sim,
            device: format!("{SIM_DEVICE_NAME}{n}"),
        }
    }
}

/// The kernel cache directory: `CUDATUTOR_CACHE_DIR`, else the XDG cache dir.
pub(crate) fn kernel_cache_dir() -> Option<std::path::PathBuf> {
    if let Some(d) = std::env::var_os("CUDATUTOR_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(std::path::PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "cudatutor").map(|d| d.cache_dir().join("ptx"))
}

/// The cuda self-test on GPU 0, run in this process (`cudatutor __selftest`: a process of its
/// own, since the test poisons its context); returns the process's exit status.
pub(crate) fn cuda_selftest_process() -> u8 {
    let dir = kernel_cache_dir().unwrap_or_else(|| std::env::temp_dir().join("cudatutor-kernels"));
    crate::engine::cuda::selftest::cuda_selftest_process(dir)
}

/// Whether `auto` picks the cuda backend on this machine (see [`AUTO_PICKS_CUDA`]), decided
/// once per process.
pub fn cuda_usable_here() -> bool {
    static USABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    // Cheapest test first: `auto` is decided on every start-up, and the full diagnosis loads
    // NVRTC (tens of MB resident, ~60 ms). Without a launcher or a GPU the answer is no anyway.
    // Trust, then use: only after the self-test passed (cached per binary, driver, GPU, NVRTC).
    *USABLE.get_or_init(|| {
        AUTO_PICKS_CUDA
            && CUDA_RUNTIME_BUILT
            && crate::engine::cuda::probe::probe_driver().has_gpu()
            && doctor::Diagnosis::gather_for_cuda().auto_picks_cuda()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::sync::mpsc::channel;

    fn sim() -> RunOptions {
        RunOptions {
            backend: BackendChoice::Sim,
            ..RunOptions::default()
        }
    }

    #[test]
    fn a_run_from_an_ordinary_thread_gets_one_run_thread() {
        let report = run_exercise_in_process("print(6 * 7)", None, &sim());
        assert_eq!(report.stdout, "42\n");
        assert_eq!(RUN_THREADS_STARTED.with(Cell::get), 1);
    }

    #[test]
    fn a_run_on_a_run_thread_runs_right_there() {
        let (tx, rx) = channel();
        spawn_run(
            || {
                // Deep enough to need the run thread's stack before RecursionError.
                let code = "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(900))";
                let report = run_exercise_in_process(code, None, &sim());
                (report.stdout, RUN_THREADS_STARTED.with(Cell::get))
            },
            move |result| tx.send(result).unwrap(),
        )
        .unwrap();
        let (stdout, started) = rx.recv().unwrap().unwrap();
        assert_eq!(stdout, "900\n");
        assert_eq!(started, 0, "no second thread for a run on a run thread");
    }

    #[test]
    fn a_panic_on_a_run_thread_reaches_its_one_guard() {
        let (tx, rx) = channel();
        spawn_run(
            || -> u32 { panic!("a bug in cudatutor") },
            move |result| tx.send(result).unwrap(),
        )
        .unwrap();
        let why = rx.recv().unwrap().unwrap_err();
        assert!(
            why.starts_with("a bug in cudatutor, at src/run/mod.rs:"),
            "{why}"
        );
    }

    #[test]
    fn the_status_bar_label_carries_its_backend() {
        let label = backend_label(&RunOptions { gpus: 2, ..sim() });
        assert_eq!(label.backend, Backend::Sim);
        assert_eq!(label.to_string(), format!("sim · {SIM_DEVICE_NAME} ×2"));
        let label = backend_label(&RunOptions {
            backend: BackendChoice::Emulated,
            ..sim()
        });
        assert_eq!(label.backend, Backend::Emulated);
        assert!(label.to_string().starts_with("emulated · "), "{label}");
    }
}

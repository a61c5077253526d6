//! The `cudatutor` command line: parses arguments and dispatches, nothing else. Each
//! subcommand is a module of `cudatutor::commands`, with its arguments and its `run`.

use clap::{Parser, Subcommand};
use cudatutor::commands::{self, EngineArgs, Globals, output};
use cudatutor::lesson::Lang;
use std::path::PathBuf;
use std::process::ExitCode;

/// The process's allocator: the system's, counting each thread's heap so that a run's memory
/// budget sees what the interpreter and the engine hold (cudatutor::budget).
#[global_allocator]
static ALLOCATOR: cudatutor::budget::CountingAlloc = cudatutor::budget::CountingAlloc;

#[derive(Parser)]
#[command(
    name = "cudatutor",
    version,
    about = "An interactive terminal tutorial: why PyTorch says `CUDA error: device-side assert triggered`, and what devices and memory really do",
    long_about = "An interactive terminal tutorial for PyTorch learners.\n\nSix lessons (CUDA errors, devices, debugging device-side asserts, best practices, case studies, beyond the guide) open in a pager. Run without arguments to continue where you stopped.",
    after_help = "Examples:\n  cudatutor              continue where you stopped (lesson 1 the first time)\n  cudatutor lesson 3     open lesson 3 (or a lesson id such as device-asserts)\n  cudatutor list         list the lessons and your progress\n  cudatutor --lang zh    the lessons in Chinese"
)]
struct Cli {
    /// Load lessons from this folder (*.md files) instead of the built-in ones.
    #[arg(long, global = true, value_name = "DIR")]
    lessons: Option<PathBuf>,
    /// Language of the lessons and the interface [default: zh when LANG starts with zh, else en].
    #[arg(long, global = true, value_enum)]
    lang: Option<Lang>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands, in the order `--help` lists them; the doc comment is each one's help.
#[derive(Subcommand)]
enum Command {
    /// Open one lesson: its number (1..6) or its id.
    Lesson(commands::lesson::Args),
    /// List the lessons with their number, title and progress.
    List,
    /// Run a Python script through the engine and print what `python3 FILE` would print.
    /// Exit status: 0 ran cleanly, 1 raised, 2 usage or I/O error.
    Run(commands::run::Args),
    /// Explain a traceback or log (FILE, or `-` / nothing for stdin): what the error is and
    /// is not, where its origin probably is, the checks to run, and the lesson that teaches it.
    Explain(commands::explain::Args),
    /// Run a script on the engine and on real PyTorch (this machine's Python, unsandboxed) and
    /// print what differs: stdout lines, exception type and message, reported and origin line,
    /// exit status, memory counters. Exit 0 identical, 1 different, 2 when one side cannot run.
    Diff(commands::diff::Args),
    /// Grade saved work: run each exercise's saved code against its checks.
    /// Exit 0 when every attempted exercise passes, 1 otherwise, 2 when the backend cannot
    /// run here.
    Check(commands::check::Args),
    /// Progress and results for handing in.
    Report(commands::report::Args),
    /// Validate a lesson folder: format errors with file:line, and every exercise's solution
    /// run against its checks. Exit 1 on any problem.
    Lint(commands::lint::Args),
    /// Open an exercise in your own editor ($VISUAL, $EDITOR or --edit-cmd), then run it and
    /// its checks. The file is <data dir>/<lesson>/<exercise>.py; what you save is your code.
    Edit(commands::edit::Args),
    /// Re-run an exercise and its checks each time its file is saved (without an exercise: the
    /// first one not yet passed, then the next).
    Watch(commands::watch::Args),
    /// Show the next hint of an exercise (recorded for `report`, as in the pager).
    Hint(commands::hint::Args),
    /// Show a lesson's quizzes: each question, its numbered choices and your first answer.
    Quiz(commands::quiz::Args),
    /// Answer a quiz: `cudatutor answer 3 1 2` answers quiz 1 of lesson 3 with choice 2. The
    /// first answer is the grade, as in the pager; the explanation follows any answer.
    Answer(commands::answer::Args),
    /// Write every exercise as a .py file (its goal as a comment) under DIR, for any IDE.
    Export(commands::export::Args),
    /// Read the .py files written by `export` back as your saved code.
    Import(commands::import::Args),
    /// Scaffolding for instructors: `cudatutor new lesson NAME`.
    New(commands::new::Args),
    /// Internal: the isolated GPU worker (line-delimited JSON on stdin/stdout).
    #[command(name = "__worker", hide = true)]
    Worker,
    /// Internal: the cuda self-test on GPU 0, in a process of its own (it poisons its context).
    #[command(name = "__selftest", hide = true)]
    SelfTest,
    /// Check this machine: NVIDIA driver, GPUs, NVRTC, cuBLAS, kernel cache, chosen backend.
    /// Exits 0 when the cuda backend is usable, 1 when only the simulated GPU is.
    Doctor,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // this executable is cudatutor: graded runs may re-execute it as their worker
    cudatutor::run::isolate::allow_self_exec();
    #[cfg(feature = "fault-injection")]
    if let Some(kib) = cudatutor::fault_injection::save_loop_requested() {
        return exit_code(cudatutor::fault_injection::save_loop(&kib));
    }
    let globals = Globals {
        lessons: cli.lessons,
        lang: cli.lang.unwrap_or_else(Lang::from_env),
        opts: cli.engine.options(),
    };
    let g = &globals;
    let status = match cli.command {
        None => commands::lesson::resume(g),
        Some(Command::Lesson(args)) => commands::lesson::run(args, g),
        Some(Command::List) => commands::list::run(g),
        Some(Command::Run(args)) => commands::run::run(args, g),
        Some(Command::Explain(args)) => commands::explain::run(args, g),
        Some(Command::Diff(args)) => commands::diff::run(args, g),
        Some(Command::Check(args)) => commands::check::run(args, g),
        Some(Command::Report(args)) => commands::report::run(args, g),
        Some(Command::Lint(args)) => commands::lint::run(args, g),
        Some(Command::Edit(args)) => commands::edit::run(args, g),
        Some(Command::Watch(args)) => commands::watch::run(args, g),
        Some(Command::Hint(args)) => commands::hint::run(args, g),
        Some(Command::Quiz(args)) => commands::quiz::run(args, g),
        Some(Command::Answer(args)) => commands::answer::run(args, g),
        Some(Command::Export(args)) => commands::export::run(args, g),
        Some(Command::Import(args)) => commands::import::run(args, g),
        Some(Command::New(args)) => commands::new::run(args),
        Some(Command::Worker) => Ok(commands::worker::run()),
        Some(Command::SelfTest) => Ok(commands::selftest::run()),
        Some(Command::Doctor) => commands::doctor::run(g),
    };
    // the GPU worker the command's runs kept warm ends with it (and its log file with it)
    cudatutor::run::warm_worker::release();
    exit_code(status)
}

/// A command's status; an error it could not handle is reported here: 141 when stdout's reader
/// went away, else `cudatutor: <error>` and 2.
fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if output::is_broken_pipe(&e) => ExitCode::from(output::BROKEN_PIPE_STATUS),
        Err(e) => {
            eprintln!("cudatutor: {e:#}");
            ExitCode::from(2)
        }
    }
}

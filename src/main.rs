//! The `cudatutor` command line: parses arguments and dispatches, nothing else.

use clap::{Parser, Subcommand};
use cudatutor::classroom::formats::GradeFormat;
use cudatutor::classroom::{self, grade};
use cudatutor::commands::output::{self, emit};
use cudatutor::commands::run_cmd;
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store};
use cudatutor::run::{BackendChoice, RunOptions};
use cudatutor::ui::{self, App, EngineRunner, Theme};
use std::path::PathBuf;
use std::process::ExitCode;

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

/// How exercises and scripts run (the pager, `run`, `check` and `lint` all use these).
#[derive(clap::Args, Clone)]
struct EngineArgs {
    /// Where CUDA tensors live: a real GPU (cuda), the simulated GPU (sim), the real kernels run
    /// on the CPU (emulated), or cuda when usable. `pytorch` runs the script on this machine's
    /// own Python and PyTorch, UNSANDBOXED (never chosen by auto).
    #[arg(long, global = true, value_enum, default_value = "auto")]
    backend: BackendArg,
    /// Number of simulated GPUs (cuda:0 … cuda:N-1).
    #[arg(long, global = true, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    gpus: u32,
    /// Memory of each simulated GPU, e.g. 80GiB, 24GiB, 512MiB.
    #[arg(long, global = true, default_value = "80GiB", value_parser = parse_gpu_size)]
    gpu_memory: u64,
    /// Cap this process's GPU memory (for labs sharing one card); also CUDATUTOR_GPU_MEM_LIMIT.
    #[arg(long, global = true, value_parser = parse_gpu_size, env = "CUDATUTOR_GPU_MEM_LIMIT")]
    gpu_mem_limit: Option<u64>,
    /// Make every kernel launch synchronous, as CUDA_LAUNCH_BLOCKING=1 does.
    #[arg(long, global = true)]
    launch_blocking: bool,
    /// The Python interpreter of `--backend pytorch` and `diff` [default: CUDATUTOR_PYTHON, else
    /// python3].
    #[arg(long, global = true, value_name = "PATH")]
    python: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum BackendArg {
    Auto,
    Sim,
    Cuda,
    Emulated,
    Pytorch,
}

fn parse_gpu_size(text: &str) -> Result<u64, String> {
    cudatutor::commands::size::parse_gpu_size(text)
}

impl EngineArgs {
    fn options(&self) -> RunOptions {
        // The limit caps this process's allocator (PyTorch's per-process memory fraction); the
        // device keeps its capacity, which the OOM message reports as "total capacity".
        RunOptions {
            backend: match self.backend {
                BackendArg::Auto => BackendChoice::Auto,
                BackendArg::Sim => BackendChoice::Sim,
                BackendArg::Cuda => BackendChoice::Cuda,
                BackendArg::Emulated => BackendChoice::Emulated,
                BackendArg::Pytorch => BackendChoice::Pytorch,
            },
            python: self.python.clone(),
            gpus: self.gpus,
            gpu_memory: self.gpu_memory,
            mem_limit: self.gpu_mem_limit,
            launch_blocking: self.launch_blocking,
            ..RunOptions::default()
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Open one lesson: its number (1..6) or its id.
    Lesson {
        /// A number such as 3, or an id such as device-asserts.
        which: String,
    },
    /// List the lessons with their number, title and progress.
    List,
    /// Run a Python script through the engine and print what `python3 FILE` would print.
    /// Exit status: 0 ran cleanly, 1 raised, 2 usage or I/O error.
    Run {
        /// The script; `-` reads it from stdin.
        file: PathBuf,
        /// text: stdout and traceback as python3 prints them; json: the full RunReport.
        #[arg(long, value_enum, default_value = "text")]
        format: run_cmd::Format,
        /// Print the memory/timeline summary even when stderr is not a terminal.
        #[arg(long)]
        summary: bool,
        /// The script's wall-clock limit in seconds (default 10); past it the run ends with
        /// `TimeoutError: the script ran longer than N seconds`.
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
        time_limit: Option<u64>,
    },
    /// Run a script on the engine and on real PyTorch (this machine's Python, unsandboxed) and
    /// print what differs: stdout lines, exception type and message, reported and origin line,
    /// exit status, memory counters. Exit 0 identical, 1 different, 2 when one side cannot run.
    Diff {
        /// The scripts (one resident PyTorch process serves them all); `-` reads one from stdin.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// text: the differences; json: one object per script (both reports, the differences).
        #[arg(long, value_enum, default_value = "text")]
        format: run_cmd::Format,
    },
    /// Grade saved work: run each exercise's saved code against its checks.
    /// Exit 0 when every attempted exercise passes, 1 otherwise.
    Check {
        /// Only this lesson (number or id).
        lesson: Option<String>,
        /// Every lesson (the default when no lesson is named).
        #[arg(long)]
        all: bool,
        /// One JSON object per exercise, one per line (the same as --format json).
        #[arg(long)]
        json: bool,
        /// text: a table; json: cudatutor's schema; github / exercism / gradescope: the result
        /// files those platforms read (docs/classroom.md).
        #[arg(long, value_enum, default_value = "text")]
        format: GradeFormat,
        /// Grade the lessons' own solutions instead of saved work (for authors and CI).
        #[arg(long)]
        solutions: bool,
        /// Only this exercise (its id), e.g. for a per-exercise runner such as Exercism's.
        #[arg(long, value_name = "ID", conflicts_with = "lesson")]
        exercise: Option<String>,
    },
    /// Progress and results for handing in.
    Report {
        #[arg(long, value_enum, default_value = "md")]
        format: ReportFormat,
        /// Write to this file instead of stdout.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Validate a lesson folder: format errors with file:line, and every exercise's solution
    /// run against its checks. Exit 1 on any problem.
    Lint {
        dir: PathBuf,
        /// Also require a ```python wrong``` block and two ```python right``` blocks on every
        /// exercise.
        #[arg(long)]
        strict: bool,
        /// Each run's wall-clock limit in seconds (default 10): a loaded machine or the emulated
        /// device may need more.
        #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
        time_limit: Option<u64>,
    },
    /// Open an exercise in your own editor ($VISUAL, $EDITOR or --edit-cmd), then run it and
    /// its checks. The file is <data dir>/<lesson>/<exercise>.py; what you save is your code.
    Edit {
        /// The exercise id (`cudatutor export` and the pager show them), e.g. l3-one-based.
        exercise: String,
        /// The editor command, e.g. "code -w" or "vim" (GUI editors must wait: -w).
        #[arg(long, value_name = "CMD")]
        edit_cmd: Option<String>,
    },
    /// Re-run an exercise and its checks each time its file is saved (without an exercise: the
    /// first one not yet passed, then the next).
    Watch {
        exercise: Option<String>,
        /// No file events: press Enter after each save (for file systems without them, as on
        /// WSL2 with files under /mnt).
        #[arg(long)]
        manual_run: bool,
    },
    /// Show the next hint of an exercise (recorded for `report`, as in the pager).
    Hint { exercise: String },
    /// Show a lesson's quizzes: each question, its numbered choices and your first answer.
    Quiz {
        /// A number such as 3, or an id such as device-asserts.
        lesson: String,
    },
    /// Answer a quiz: `cudatutor answer 3 1 2` answers quiz 1 of lesson 3 with choice 2. The
    /// first answer is the grade, as in the pager; the explanation follows any answer.
    Answer {
        /// The lesson: a number such as 3, or an id such as device-asserts.
        lesson: String,
        /// The quiz's number in the lesson (1, 2, … as `cudatutor quiz` shows them).
        quiz: usize,
        /// The choice's number.
        choice: usize,
    },
    /// Write every exercise as a .py file (its goal as a comment) under DIR, for any IDE.
    Export {
        #[arg(default_value = classroom::export::DEFAULT_DIR)]
        dir: PathBuf,
    },
    /// Read the .py files written by `export` back as your saved code.
    Import {
        #[arg(default_value = classroom::export::DEFAULT_DIR)]
        dir: PathBuf,
    },
    /// Scaffolding for instructors: `cudatutor new lesson NAME`.
    New {
        #[command(subcommand)]
        what: NewCommand,
    },
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
    match run(cli) {
        Ok(code) => code,
        Err(e) if output::is_broken_pipe(&e) => ExitCode::from(output::BROKEN_PIPE_STATUS),
        Err(e) => {
            eprintln!("cudatutor: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn load_catalog(cli: &Cli, lang: Lang) -> Result<Catalog, String> {
    let result = match &cli.lessons {
        Some(dir) => Catalog::from_dir(dir),
        None => Catalog::builtin(lang),
    };
    result.map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the lessons cannot be loaded:\n{}", list.join("\n"))
    })
}

#[derive(Subcommand)]
enum NewCommand {
    /// A lesson file that passes `lint --strict`, with one of each block to replace.
    Lesson {
        /// Its title; the id and file name are made from it (`My Lesson` → my-lesson.md).
        name: String,
        /// The lesson folder to write it in.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ReportFormat {
    Md,
    Json,
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    if let Some(kib) = std::env::var_os("CUDATUTOR_TEST_SAVE_LOOP") {
        return test_save_loop(&kib);
    }
    let opts = cli.engine.options();
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    // Commands that need no lessons or progress.
    match &cli.command {
        Some(Command::Worker) => {
            return Ok(ExitCode::from(cudatutor::run::worker::serve_process()));
        }
        Some(Command::SelfTest) => {
            let dir = cudatutor::run::doctor::kernel_cache_dir()
                .unwrap_or_else(|| std::env::temp_dir().join("cudatutor-kernels"));
            return Ok(ExitCode::from(
                cudatutor::engine::cuda::selftest::cuda_selftest_process(dir),
            ));
        }
        Some(Command::Run {
            file,
            format,
            summary,
            time_limit,
        }) => {
            let (source, name) = match run_cmd::read_script(file) {
                Ok(s) => s,
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    return Ok(ExitCode::from(2));
                }
            };
            if let Err(message) = cudatutor::run::backend_available(&opts) {
                eprintln!("cudatutor: {message}");
                return Ok(ExitCode::from(2));
            }
            let opts = RunOptions {
                filename: name,
                argv0: Some(file.display().to_string()),
                max_wall: time_limit.map_or(opts.max_wall, std::time::Duration::from_secs),
                // As `python FILE`: os.environ is this process's environment, so
                // `CUDA_LAUNCH_BLOCKING=1 cudatutor run FILE` works as the classic advice says
                env: process_env(),
                ..opts
            };
            return Ok(ExitCode::from(run_cmd::execute(
                &source, &opts, *format, *summary,
            )));
        }
        Some(Command::Diff { files, format }) => {
            let opts = RunOptions {
                backend: BackendChoice::Pytorch,
                ..opts
            };
            if let Err(message) = cudatutor::run::backend_available(&opts) {
                eprintln!("cudatutor: {message}");
                return Ok(ExitCode::from(2));
            }
            let (mut differ, mut failed) = (0usize, 0usize);
            for file in files {
                let (source, name) = match run_cmd::read_script(file) {
                    Ok(s) => s,
                    Err(message) => {
                        eprintln!("cudatutor: {message}");
                        failed += 1;
                        continue;
                    }
                };
                let opts = RunOptions {
                    filename: name,
                    argv0: Some(file.display().to_string()),
                    ..opts.clone()
                };
                let d = cudatutor::run::diff::diff_exercise(&source, None, &opts);
                if d.pytorch_failed.is_some() {
                    failed += 1;
                } else if !d.identical() {
                    differ += 1;
                }
                match format {
                    run_cmd::Format::Json => emit(&format!("{}\n", serde_json::to_string(&d)?))?,
                    run_cmd::Format::Text if files.len() > 1 => emit(&format!(
                        "== {}\n{}",
                        file.display(),
                        cudatutor::run::diff::render_in(&d, lang)
                    ))?,
                    run_cmd::Format::Text => emit(&cudatutor::run::diff::render_in(&d, lang))?,
                }
            }
            if files.len() > 1 && *format == run_cmd::Format::Text {
                let summary = cudatutor::run::diff::text(lang)
                    .summary
                    .replace("{n}", &files.len().to_string())
                    .replace("{same}", &(files.len() - differ - failed).to_string())
                    .replace("{differ}", &differ.to_string())
                    .replace("{failed}", &failed.to_string());
                emit(&format!("{summary}\n"))?;
            }
            return Ok(ExitCode::from(if failed > 0 {
                2
            } else if differ == 0 {
                0
            } else {
                1
            }));
        }
        Some(Command::New {
            what: NewCommand::Lesson { name, dir },
        }) => {
            return Ok(match classroom::scaffold::new_lesson(dir, name) {
                Ok(path) => {
                    emit(&format!(
                        "{}\n  cudatutor lint --strict {}\n",
                        path.display(),
                        dir.display()
                    ))?;
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    ExitCode::from(2)
                }
            });
        }
        Some(Command::Lint {
            dir,
            strict,
            time_limit,
        }) => {
            let opts = RunOptions {
                max_wall: time_limit.map_or(opts.max_wall, std::time::Duration::from_secs),
                ..opts.clone()
            };
            let problems = classroom::lint::lint_dir_with(dir, &opts, *strict);
            let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
            if problems.is_empty() {
                text += &format!(
                    "{}: every lesson loads, every exercise's solution and right fix passes its checks and every wrong fix fails them\n",
                    dir.display()
                );
                emit(&text)?;
                return Ok(ExitCode::SUCCESS);
            }
            text += &format!("{} problem(s)\n", problems.len());
            emit(&text)?;
            return Ok(ExitCode::from(1));
        }
        _ => {}
    }
    let catalog = match load_catalog(&cli, lang) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("cudatutor: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    // Progress is kept per lesson set: the built-in lessons, or this --lessons folder.
    let store = Store::default_location().map(|s| s.for_set(&catalog.set));
    let loaded = store.as_ref().map(Store::load);
    let (progress, warning) = match loaded {
        Some(l) => (l.progress, l.warning),
        None => (Progress::default(), Some("no data folder could be found: your place will not be saved (set CUDATUTOR_DATA_DIR)".to_string())),
    };
    // The pager saves as the learner works: a folder it cannot write is said at start-up,
    // not first at the first save. Commands that only read progress need no such check.
    let writable = match (&cli.command, &store) {
        (None | Some(Command::Lesson { .. }), Some(store)) => store.check_writable(&progress).err(),
        _ => None,
    };
    for w in warning.iter().chain(&writable) {
        eprintln!("cudatutor: {w}");
    }
    let warning = match (warning, writable) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    match &cli.command {
        Some(Command::Doctor) => {
            let d = cudatutor::run::doctor::Diagnosis::gather();
            emit(&d.render_in(lang))?;
            emit(&cudatutor::run::doctor::render_python_in(&opts, lang))?;
            Ok(if d.cuda_usable().is_ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::Check {
            lesson,
            all,
            json,
            format,
            solutions,
            exercise,
        }) => {
            let only = match (lesson, all) {
                (Some(which), false) => match catalog.find(which) {
                    Some(i) => Some(i),
                    None => {
                        eprintln!("cudatutor: there is no lesson `{which}`. The lessons are:");
                        emit(&classroom::list::list_text(&catalog, &progress, lang))?;
                        return Ok(ExitCode::from(2));
                    }
                },
                _ => None,
            };
            let source = if *solutions {
                grade::Source::Solution
            } else {
                grade::Source::Saved
            };
            let grades = match exercise {
                None => grade::grade_catalog(&catalog, only, &progress, source, &opts),
                Some(id) => {
                    let Some((i, lesson, ex)) = classroom::workfile::find_exercise(&catalog, id)
                    else {
                        let words = classroom::card::card_text(lang);
                        eprintln!("cudatutor: {}", words.no_exercise.replace("{id}", id));
                        return Ok(ExitCode::from(2));
                    };
                    let code = match source {
                        grade::Source::Solution => ex.solution.as_deref(),
                        _ => progress
                            .exercises
                            .get(&ex.id)
                            .and_then(|s| s.code.as_deref()),
                    };
                    vec![grade::grade_one(i + 1, lesson, ex, code, &opts)]
                }
            };
            let format = if *json { GradeFormat::Json } else { *format };
            if format == GradeFormat::Text {
                emit(&grade::render_table(&grades, lang))?;
            } else {
                emit(&classroom::formats::render(&grades, format))?;
            }
            Ok(if grade::all_attempted_pass(&grades) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::Report { format, out }) => {
            let grades =
                grade::grade_catalog(&catalog, None, &progress, grade::Source::Saved, &opts);
            let report = classroom::report::build(&catalog, &progress, &grades);
            let text = match format {
                ReportFormat::Md => classroom::report::render_markdown(&report),
                ReportFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
            };
            match out {
                Some(path) => {
                    if let Err(e) = std::fs::write(path, text) {
                        eprintln!("cudatutor: cannot write {}: {e}", path.display());
                        return Ok(ExitCode::from(2));
                    }
                }
                None => emit(&text)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(
            Command::Run { .. }
            | Command::Diff { .. }
            | Command::Lint { .. }
            | Command::New { .. }
            | Command::Worker
            | Command::SelfTest,
        ) => Ok(ExitCode::SUCCESS),
        Some(Command::Edit { exercise, edit_cmd }) => {
            let Some(store) = &store else {
                eprintln!("cudatutor: no data folder: set CUDATUTOR_DATA_DIR");
                return Ok(ExitCode::from(2));
            };
            let words = classroom::card::card_text(lang);
            let Some((_, lesson, ex)) = classroom::workfile::find_exercise(&catalog, exercise)
            else {
                eprintln!("cudatutor: {}", words.no_exercise.replace("{id}", exercise));
                return Ok(ExitCode::from(2));
            };
            match classroom::workfile::edit_and_save(store, lesson, ex, edit_cmd.as_deref(), &opts)
            {
                Ok(outcome) => {
                    let mut text = format!("── {} ──\n", outcome.path.display());
                    if !outcome.changed {
                        text += &format!("{}\n", words.unchanged);
                    }
                    text += &classroom::card::render_run(ex, &outcome.report, lang);
                    emit(&text)?;
                    Ok(if outcome.report.checks_passed() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    })
                }
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    Ok(ExitCode::from(2))
                }
            }
        }
        Some(Command::Watch {
            exercise,
            manual_run,
        }) => {
            let Some(store) = &store else {
                eprintln!("cudatutor: no data folder: set CUDATUTOR_DATA_DIR");
                return Ok(ExitCode::from(2));
            };
            let settings = classroom::watch::WatchSettings {
                exercise: exercise.as_deref(),
                manual: *manual_run,
                lang,
                opts: &opts,
            };
            let mut out = std::io::stdout();
            match classroom::watch::watch(&catalog, store, &settings, &mut out) {
                Ok(()) => Ok(ExitCode::SUCCESS),
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    Ok(ExitCode::from(2))
                }
            }
        }
        Some(Command::Hint { exercise }) => {
            let words = classroom::card::card_text(lang);
            let Some((_, _, ex)) = classroom::workfile::find_exercise(&catalog, exercise) else {
                eprintln!("cudatutor: {}", words.no_exercise.replace("{id}", exercise));
                return Ok(ExitCode::from(2));
            };
            if ex.hints.is_empty() {
                emit(&format!("{}\n", words.no_hints))?;
                return Ok(ExitCode::SUCCESS);
            }
            let mut progress = progress;
            let shown = progress
                .stats
                .get(&ex.id)
                .map_or(0, |s| s.hints_revealed as usize);
            let n = (shown + 1).min(ex.hints.len());
            progress.record_hint(&ex.id, n);
            let mut text = format!(
                "{}\n{}\n",
                words
                    .hint_heading
                    .replace("{n}", &n.to_string())
                    .replace("{total}", &ex.hints.len().to_string()),
                ex.hints[n - 1]
            );
            if n == ex.hints.len() {
                text += &format!("{}\n", words.no_more_hints);
            }
            emit(&text)?;
            if let Some(store) = &store {
                let mut fresh = store.load().progress;
                fresh.record_hint(&ex.id, n);
                if let Err(e) = store.save(&fresh) {
                    eprintln!("cudatutor: progress was not saved: {e}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Quiz { lesson }) => {
            let Some(i) = catalog.find(lesson) else {
                eprintln!("cudatutor: there is no lesson `{lesson}`. The lessons are:");
                emit(&classroom::list::list_text(&catalog, &progress, lang))?;
                return Ok(ExitCode::from(2));
            };
            emit(&classroom::quiz::render_quizzes(
                &catalog.lessons[i],
                i + 1,
                &progress,
                lang,
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Answer {
            lesson,
            quiz,
            choice,
        }) => {
            let Some(i) = catalog.find(lesson) else {
                eprintln!("cudatutor: there is no lesson `{lesson}`. The lessons are:");
                emit(&classroom::list::list_text(&catalog, &progress, lang))?;
                return Ok(ExitCode::from(2));
            };
            let Some(store) = &store else {
                eprintln!("cudatutor: no data folder: set CUDATUTOR_DATA_DIR");
                return Ok(ExitCode::from(2));
            };
            // Read again just before the save, as `hint` does: a pager open meanwhile keeps its
            // work, and an answer given there first stays the grade.
            let mut fresh = store.load().progress;
            match classroom::quiz::answer(
                &mut fresh,
                &catalog.lessons[i],
                i + 1,
                *quiz,
                *choice,
                lang,
            ) {
                Ok(text) => {
                    if let Err(e) = store.save(&fresh) {
                        eprintln!("cudatutor: progress was not saved: {e}");
                        return Ok(ExitCode::from(2));
                    }
                    emit(&text)?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    Ok(ExitCode::from(2))
                }
            }
        }
        Some(Command::Export { dir }) => {
            match classroom::export::export(dir, &catalog, &progress) {
                Ok(files) => {
                    let words = classroom::card::card_text(lang);
                    emit(&format!(
                        "{}\n",
                        words
                            .exported
                            .replace("{n}", &files.len().to_string())
                            .replace("{dir}", &dir.display().to_string())
                    ))?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(message) => {
                    eprintln!("cudatutor: {message}");
                    Ok(ExitCode::from(2))
                }
            }
        }
        Some(Command::Import { dir }) => {
            let Some(store) = &store else {
                eprintln!("cudatutor: no data folder: set CUDATUTOR_DATA_DIR");
                return Ok(ExitCode::from(2));
            };
            if !dir.is_dir() {
                eprintln!("cudatutor: {}: not a folder", dir.display());
                return Ok(ExitCode::from(2));
            }
            let mut fresh = store.load().progress;
            let imported = classroom::export::import(dir, &catalog, &mut fresh);
            if let Err(e) = store.save(&fresh) {
                eprintln!("cudatutor: progress was not saved: {e}");
                return Ok(ExitCode::from(2));
            }
            emit(&imported.render(dir, lang))?;
            Ok(if imported.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::List) => {
            emit(&classroom::list::list_text(&catalog, &progress, lang))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Lesson { which }) => match catalog.find(which) {
            Some(index) => open_pager(
                &opts,
                catalog,
                lang,
                progress,
                Some(index),
                store.as_ref(),
                warning,
            ),
            None => {
                eprintln!("cudatutor: there is no lesson `{which}`. The lessons are:");
                emit(&classroom::list::list_text(&catalog, &progress, lang))?;
                Ok(ExitCode::from(2))
            }
        },
        None => open_pager(
            &opts,
            catalog,
            lang,
            progress,
            None,
            store.as_ref(),
            warning,
        ),
    }
}

fn open_pager(
    opts: &RunOptions,
    catalog: Catalog,
    lang: Lang,
    progress: Progress,
    start: Option<usize>,
    store: Option<&Store>,
    warning: Option<String>,
) -> anyhow::Result<ExitCode> {
    let runner = EngineRunner::new(RunOptions {
        launch_blocking: false,
        ..opts.clone()
    });
    let mut app = App::new(catalog, lang, Theme::from_env(), progress, start)
        .with_runner(std::sync::Arc::new(runner));
    app.launch_blocking = opts.launch_blocking;
    app.status = warning;
    ui::run(app, store)?;
    Ok(ExitCode::SUCCESS)
}

/// The hidden mode of the kill -9 fault test (tests/fault_progress.rs): saves large progress
/// over and over in `CUDATUTOR_DATA_DIR` until killed. Not for learners; never reached unless
/// the variable is set.
fn test_save_loop(kib: &std::ffi::OsStr) -> anyhow::Result<ExitCode> {
    let kib: usize = kib
        .to_str()
        .and_then(|k| k.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("CUDATUTOR_TEST_SAVE_LOOP must be a size in KiB"))?;
    let store = Store::default_location().ok_or_else(|| anyhow::anyhow!("no data folder"))?;
    cudatutor::progress::test_save_loop(&store, kib, 100_000).map_err(anyhow::Error::msg)?;
    Ok(ExitCode::SUCCESS)
}

/// This process's environment, as `os.environ` sees it (entries that are not UTF-8 are left
/// out: CPython would decode them with surrogateescape, which the interpreter's str lacks).
fn process_env() -> Vec<(String, String)> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect()
}

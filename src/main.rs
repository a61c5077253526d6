//! The `cudatutor` command line: parses arguments and dispatches, nothing else.

use clap::{Parser, Subcommand};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{Progress, Store};
use cudatutor::ui::{self, App, Theme};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cudatutor",
    version,
    about = "An interactive terminal tutorial: why PyTorch says `CUDA error: device-side assert triggered`, and what devices and memory really do",
    long_about = "An interactive terminal tutorial for PyTorch learners.\n\nFive lessons (CUDA errors, devices, debugging device-side asserts, best practices, case studies) open in a pager. Run without arguments to continue where you stopped.",
    after_help = "Examples:\n  cudatutor              continue where you stopped (lesson 1 the first time)\n  cudatutor lesson 3     open lesson 3 (or a lesson id such as device-asserts)\n  cudatutor list         list the lessons and your progress\n  cudatutor --lang zh    the lessons in Chinese"
)]
struct Cli {
    /// Load lessons from this folder (*.md files) instead of the built-in ones.
    #[arg(long, global = true, value_name = "DIR")]
    lessons: Option<PathBuf>,
    /// Language of the lessons and the interface [default: zh when LANG starts with zh, else en].
    #[arg(long, global = true, value_enum)]
    lang: Option<Lang>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Open one lesson: its number (1..5) or its id.
    Lesson {
        /// A number such as 3, or an id such as device-asserts.
        which: String,
    },
    /// List the lessons with their number, title and progress.
    List,
    /// Check this machine: NVIDIA driver, GPUs, NVRTC, cuBLAS, kernel cache, chosen backend.
    /// Exits 0 when the cuda backend is usable, 1 when only the simulated GPU is.
    Doctor,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
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

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    let catalog = match load_catalog(&cli, lang) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("cudatutor: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let store = Store::default_location();
    let loaded = store.as_ref().map(Store::load);
    let (progress, warning) = match loaded {
        Some(l) => (l.progress, l.warning),
        None => (Progress::default(), Some("no data folder could be found: your place will not be saved (set CUDATUTOR_DATA_DIR)".to_string())),
    };
    if let Some(w) = &warning {
        eprintln!("cudatutor: {w}");
    }
    match &cli.command {
        Some(Command::Doctor) => {
            let d = cudatutor::run::doctor::Diagnosis::gather();
            print!("{}", d.render());
            Ok(if d.cuda_usable().is_ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Command::List) => {
            print_list(&catalog, &progress);
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Lesson { which }) => match catalog.find(which) {
            Some(index) => open_pager(
                catalog,
                lang,
                progress,
                Some(index),
                store.as_ref(),
                warning,
            ),
            None => {
                eprintln!("cudatutor: there is no lesson `{which}`. The lessons are:");
                print_list(&catalog, &progress);
                Ok(ExitCode::from(2))
            }
        },
        None => open_pager(catalog, lang, progress, None, store.as_ref(), warning),
    }
}

fn open_pager(
    catalog: Catalog,
    lang: Lang,
    progress: Progress,
    start: Option<usize>,
    store: Option<&Store>,
    warning: Option<String>,
) -> anyhow::Result<ExitCode> {
    let mut app = App::new(catalog, lang, Theme::from_env(), progress, start);
    app.status = warning;
    ui::run(app, store)?;
    Ok(ExitCode::SUCCESS)
}

fn print_list(catalog: &Catalog, progress: &Progress) {
    let title_width = catalog
        .lessons
        .iter()
        .map(|l| unicode_width::UnicodeWidthStr::width(l.title.as_str()))
        .max()
        .unwrap_or(0);
    for (i, lesson) in catalog.lessons.iter().enumerate() {
        let total = lesson.exercises.len();
        let done = lesson
            .exercises
            .iter()
            .filter(|e| progress.exercises.get(&e.id).is_some_and(|s| s.passed))
            .count();
        let mark = if total > 0 && done == total {
            "✓"
        } else {
            " "
        };
        // Pad by display width so Chinese titles line up too.
        let pad = title_width
            .saturating_sub(unicode_width::UnicodeWidthStr::width(lesson.title.as_str()));
        println!(
            "{mark} {}  {}{}  {done}/{total} exercises  ({})",
            i + 1,
            lesson.title,
            " ".repeat(pad),
            lesson.id
        );
    }
}

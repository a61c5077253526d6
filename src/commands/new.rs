//! `cudatutor new lesson NAME`: scaffolding for instructors.

use super::output::emit;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// A lesson file that passes `lint --strict`, with one of each block to replace.
    Lesson {
        /// Its title; the id and file name are made from it (`My Lesson` → my-lesson.md).
        name: String,
        /// The lesson folder to write it in.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let What::Lesson { name, dir } = args.what;
    Ok(match crate::classroom::scaffold::new_lesson(&dir, &name) {
        Ok(path) => {
            emit(&format!(
                "{}\n  cudatutor lint --strict {}\n",
                path.display(),
                dir.display()
            ))?;
            ExitCode::SUCCESS
        }
        Err(message) => super::usage_error(message),
    })
}

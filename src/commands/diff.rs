//! `cudatutor diff FILE…`: each script on the engine and on real PyTorch, and what differs.

use super::Globals;
use super::output::emit;
use super::run::{Format, read_script};
use crate::run::{BackendChoice, RunOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The scripts (one resident PyTorch process serves them all); `-` reads one from stdin.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// text: the differences; json: one object per script (both reports, the differences).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Exit 0 identical, 1 different, 2 when one side cannot run.
pub fn run(args: Args, globals: &Globals) -> anyhow::Result<ExitCode> {
    let Args { files, format } = args;
    let lang = globals.lang;
    let opts = RunOptions {
        backend: BackendChoice::Pytorch,
        ..globals.opts.clone()
    };
    if let Err(message) = crate::run::backend_available(&opts) {
        return Ok(super::usage_error(message));
    }
    let (mut differ, mut failed) = (0usize, 0usize);
    for file in &files {
        let (source, name) = match read_script(file) {
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
        let d = crate::run::diff::diff_exercise(&source, None, &opts);
        if d.pytorch_failed.is_some() {
            failed += 1;
        } else if !d.identical() {
            differ += 1;
        }
        match format {
            Format::Json => emit(&format!("{}\n", serde_json::to_string(&d)?))?,
            Format::Text if files.len() > 1 => emit(&format!(
                "== {}\n{}",
                file.display(),
                crate::run::diff::render_in(&d, lang)
            ))?,
            Format::Text => emit(&crate::run::diff::render_in(&d, lang))?,
        }
    }
    if files.len() > 1 && format == Format::Text {
        let summary = crate::run::diff::text(lang)
            .summary
            .replace("{n}", &files.len().to_string())
            .replace("{same}", &(files.len() - differ - failed).to_string())
            .replace("{differ}", &differ.to_string())
            .replace("{failed}", &failed.to_string());
        emit(&format!("{summary}\n"))?;
    }
    Ok(ExitCode::from(if failed > 0 {
        2
    } else if differ == 0 {
        0
    } else {
        1
    }))
}

//! `cudatutor doctor`: the NVIDIA driver, GPUs, NVRTC, cuBLAS, the kernel cache, the backend
//! `auto` picks, and the Python of `--backend pytorch`.

use super::Globals;
use super::learner::Learner;
use super::output::emit;
use std::process::ExitCode;

/// Exit 0 when the cuda backend is usable, 1 when only the simulated GPU is.
pub fn run(globals: &Globals) -> anyhow::Result<ExitCode> {
    // Loaded as every lesson command does (its warnings included), though doctor reads none
    // of it: a lesson folder that does not load is reported here too.
    if let Err(code) = Learner::load(globals, false) {
        return Ok(code);
    }
    let d = crate::run::doctor::Diagnosis::gather();
    emit(&d.render_in(globals.lang))?;
    emit(&crate::run::doctor::render_python_in(
        &globals.opts,
        globals.lang,
    ))?;
    Ok(super::status(d.cuda_usable().is_ok()))
}

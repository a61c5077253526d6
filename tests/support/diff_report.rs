//! A comparison of an engine run with a real-PyTorch run, as `cudatutor diff` and the pager's
//! `D` make them, built here from two reports (tests/cli_doctor.rs, tests/ui_cards.rs).

use cudatutor::run::RunReport;
use cudatutor::run::diff::{DiffReport, differences};

/// Both runs passed: the sim's printed `engine_out`, a CPU PyTorch 2.15's printed `torch_out`.
pub(crate) fn comparison(engine_out: &str, torch_out: &str) -> DiffReport {
    let passed = |backend: &str, device_name: &str, stdout: &str| RunReport {
        backend: backend.into(),
        device_name: device_name.into(),
        stdout: stdout.into(),
        ok: true,
        ..RunReport::default()
    };
    let engine = passed("sim", "Simulated H200 (modelled)", engine_out);
    let pytorch = passed("pytorch", "real PyTorch 2.15.0 · CPU", torch_out);
    DiffReport {
        differences: differences(&engine, &pytorch),
        engine,
        pytorch,
        pytorch_failed: None,
    }
}

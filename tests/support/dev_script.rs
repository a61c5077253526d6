//! The script of a test binary's `run_file` dev helper: `CUDATUTOR_SCRIPT=file.py cargo test
//! --test NAME run_file -- --ignored --nocapture` runs the file through that binary's own
//! runner (tests/engine_torch.rs, tests/script_eval.rs).

/// The text of the file CUDATUTOR_SCRIPT names (empty when it cannot be read); None when the
/// variable is not set (the helper then does nothing).
pub(crate) fn dev_script() -> Option<String> {
    let path = std::env::var("CUDATUTOR_SCRIPT").ok()?;
    Some(std::fs::read_to_string(path).unwrap_or_default())
}

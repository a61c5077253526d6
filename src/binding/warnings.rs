//! Warnings raised by native code (PyTorch's C++ TORCH_WARN, numpy's own), shown as Python's
//! `warnings` module would show them at the script line running now.

use crate::script::{Args, Interpreter, PyResult, Value};

thread_local! {
    /// Warnings already shown in this run: Python's default filter shows each (location,
    /// message) once; PyTorch's TORCH_WARN_ONCE ones once per process (key without location).
    static WARNED: std::cell::RefCell<std::collections::HashSet<String>> =
        std::cell::RefCell::new(std::collections::HashSet::new());
}

/// A `UserWarning` as Python's warnings module prints it on stderr: `FILE:LINE: UserWarning:
/// MESSAGE` and the source line, attributed to the script line running now (PyTorch's C++
/// warnings point at the Python caller). `once`: TORCH_WARN_ONCE (once per run). An error
/// when a `warnings` filter turns it into one.
pub(crate) fn warn(it: &mut Interpreter, msg: &str, once: bool) -> PyResult<()> {
    let line = it.current_line();
    let file = it.main_file.to_string();
    let src = it.source_line(&file, line).unwrap_or_default();
    let key = if once {
        format!("once\0{msg}")
    } else {
        format!("{file}\0{line}\0{msg}")
    };
    warn_keyed(it, key, &file, line, msg, &src)
}

/// A warning attributed to a line of PyTorch's own Python source (a module's forward calling
/// the functional form, `warnings.warn(..., stacklevel=2)`): its file, line and text.
pub(crate) fn warn_at(
    it: &mut Interpreter,
    file: &str,
    line: u32,
    msg: &str,
    src: &str,
) -> PyResult<()> {
    let key = format!("{file}\0{line}\0{msg}");
    warn_keyed(it, key, file, line, msg, src)
}

fn warn_keyed(
    it: &mut Interpreter,
    key: String,
    file: &str,
    line: u32,
    msg: &str,
    src: &str,
) -> PyResult<()> {
    warn_keyed_as(it, key, file, line, "UserWarning", msg, src)
}

/// A warning of another category (`DeprecationWarning`) at the script line running now,
/// once per location as Python's default filter shows it.
pub(crate) fn warn_as(it: &mut Interpreter, category: &str, msg: &str) -> PyResult<()> {
    let line = it.current_line();
    let file = it.main_file.to_string();
    let src = it.source_line(&file, line).unwrap_or_default();
    let key = format!("{file}\0{line}\0{category}\0{msg}");
    warn_keyed_as(it, key, &file, line, category, msg, &src)
}

/// Show a warning: through the script's `warnings` module once it is imported (its filters,
/// `catch_warnings(record=True)`, `showwarning`), else as its default filter would, once per
/// key. TORCH_WARN_ONCE keys (`once\0...`) reach the module at most once, as in C++.
fn warn_keyed_as(
    it: &mut Interpreter,
    key: String,
    file: &str,
    line: u32,
    category: &str,
    msg: &str,
    src: &str,
) -> PyResult<()> {
    let once = key.starts_with("once\0");
    let shown_before = !WARNED.with(|w| w.borrow_mut().insert(key));
    if let Some(warnings) = it.modules.get("warnings").cloned() {
        if once && shown_before {
            return Ok(());
        }
        let module = if file == &*it.main_file {
            "__main__".to_string()
        } else {
            let stem = file.rsplit('/').next().unwrap_or(file);
            stem.strip_suffix(".py").unwrap_or(stem).to_string()
        };
        let hook = it.getattr(&warnings, "_warn_from_engine")?;
        let args = vec![
            Value::from(category),
            Value::from(msg),
            Value::from(file),
            Value::Int(i64::from(line)),
            Value::from(module.as_str()),
            Value::from(src),
            Value::Bool(shown_before),
        ];
        it.call(&hook, Args::new(args))?;
        return Ok(());
    }
    if shown_before {
        return Ok(());
    }
    let mut text = format!("{file}:{line}: {category}: {msg}\n");
    let src = src.trim();
    if !src.is_empty() {
        text.push_str(&format!("  {src}\n"));
    }
    it.write_stderr(&text);
    Ok(())
}

/// Forget the warnings shown: a new run shows each again.
pub(crate) fn forget_shown() {
    WARNED.with(|w| w.borrow_mut().clear());
}

//! `_warnings`: what the `warnings` prelude (warnings.py) needs from the interpreter: the
//! file, line and module of a frame up the stack (for `stacklevel`), and a source line (what
//! CPython's linecache gives `formatwarning`).

use crate::script::errors::PyResult;
use crate::script::interp::Interpreter;
use crate::script::value::{Module, Value};

/// The module name of a frame's file: `__main__` for the script, the prelude's own name for
/// `<name>`, else the file's stem.
fn module_of(it: &Interpreter, file: &str) -> String {
    if file == &*it.main_file {
        return "__main__".to_string();
    }
    if let Some(name) = file.strip_prefix('<').and_then(|f| f.strip_suffix('>')) {
        return name.to_string();
    }
    let stem = file.rsplit('/').next().unwrap_or(file);
    stem.strip_suffix(".py").unwrap_or(stem).to_string()
}

pub(crate) fn module(_it: &mut Interpreter) -> PyResult<Value> {
    let m = Module::new("_warnings");
    // _caller(stacklevel): (filename, lineno, module) of the frame `stacklevel` calls above
    // warnings.warn's own frame; past the outermost frame CPython reports `sys`, line 1
    m.add_fn("_caller", |it, args| {
        let a = args.exact("_caller", 1)?;
        let level = a[0].as_int().unwrap_or(1).max(1) as usize;
        let n = it.frames.len();
        let found = n
            .checked_sub(1 + level)
            .and_then(|i| it.frames.get(i))
            .map(|f| (f.file.to_string(), f.line));
        let (file, line, module) = match found {
            Some((file, line)) => {
                let module = module_of(it, &file);
                (file, line as i64, module)
            }
            None => ("sys".to_string(), 1, "sys".to_string()),
        };
        Ok(Value::tuple(vec![
            Value::from(file.as_str()),
            Value::Int(line),
            Value::from(module.as_str()),
        ]))
    });
    // _source_line(filename, lineno): the line's text, '' when the file is not known
    m.add_fn("_source_line", |it, args| {
        let a = args.exact("_source_line", 2)?;
        let file = a[0].as_str().unwrap_or_default().to_string();
        let line = a[1].as_int().unwrap_or(0).max(0) as u32;
        let text = it.source_line(&file, line).unwrap_or_default();
        Ok(Value::from(text.as_str()))
    });
    Ok(m.into_value())
}

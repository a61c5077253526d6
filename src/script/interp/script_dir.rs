//! `import NAME` of a module that sits next to the main script (NAME.py in the script's
//! folder), as python3 finds it through `sys.path[0]`: a learner splits a program into two
//! files, and the conformance scripts share one printing prelude this way.
//!
//! Only `cudatutor run FILE` names the folder (an exercise has none), and only NAME.py of that
//! folder is read when a script imports NAME: no other file of the machine. A registered module
//! (torch, numpy, the standard library subset) wins over a file of the same name, where CPython
//! would let the file shadow every module that is not built into the interpreter.

use std::io::Read;
use std::path::Path;
use std::rc::Rc;

use super::super::errors::{PyException, PyResult};
use super::super::value::{Module, Value};
use super::Interpreter;
use crate::script::{ExcType, MAX_SOURCE};

impl Interpreter {
    /// Lets `import NAME` find NAME.py in `dir`, the main script's folder.
    pub(crate) fn set_script_dir(&mut self, dir: &Path) {
        self.script_dir = Some(dir.to_path_buf());
    }

    /// The module NAME.py next to the main script, run on its first import; None when the
    /// script has no folder or the folder has no such file.
    pub(crate) fn import_script_sibling(&mut self, name: &str) -> PyResult<Option<Value>> {
        let Some(dir) = &self.script_dir else {
            return Ok(None);
        };
        if !is_module_name(name) {
            return Ok(None);
        }
        let path = dir.join(format!("{name}.py"));
        if !path.is_file() {
            return Ok(None);
        }
        let file: Rc<str> = path.display().to_string().into();
        let source = read_source(&path, &file)?;
        let code = self.compile_source(&source, &file, name)?;
        let module = Rc::new(Module::new(name));
        module.set_attr("__file__", Value::str(&file));
        let value = Value::Module(module.clone());
        // In sys.modules before its code runs, as in CPython: a circular import gets the
        // partly initialised module instead of running it again.
        self.modules.insert(name.to_string(), value.clone());
        if let Err(e) = self.exec_module_code(&code, &module, false) {
            self.modules.remove(name);
            return Err(e);
        }
        Ok(Some(value))
    }
}

/// A plain identifier: never a path (`..`, `/`) the import could be steered with.
fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The module's source, at most one byte past [`MAX_SOURCE`] (the compiler then reports it
/// as too long). Unreadable: ImportError; not UTF-8: CPython's SyntaxError.
fn read_source(path: &Path, file: &str) -> PyResult<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SOURCE as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| PyException::new(ExcType::ImportError, format!("cannot read {file}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        PyException::new(
            ExcType::SyntaxError,
            format!(
                "Non-UTF-8 code starting with '\\x{:02x}' in file {file} on line {line}, but no \
                 encoding declared; see https://peps.python.org/pep-0263/ for details",
                bytes[at]
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Limits;

    fn folder_with(files: &[(&str, &str)]) -> std::path::PathBuf {
        static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cudatutor-script-dir-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        dir
    }

    fn run_in(dir: Option<&Path>, main: &str) -> (String, Option<String>) {
        let mut it = Interpreter::new(Limits::default());
        if let Some(dir) = dir {
            it.set_script_dir(dir);
        }
        let r = it.run_main(main, "main.py");
        (it.take_stdout(), r.err().map(|e| e.to_string()))
    }

    /// What `main` prints when run next to `files`, which must raise nothing.
    fn output_next_to(files: &[(&str, &str)], main: &str) -> String {
        let dir = folder_with(files);
        let (out, err) = run_in(Some(&dir), main);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(err, None);
        out
    }

    #[test]
    fn a_module_next_to_the_script_imports_once_with_its_own_globals() {
        let out = output_next_to(
            &[(
                "helper.py",
                "print('loading')\nscale = 3\ndef times(x):\n    return x * scale\n",
            )],
            "import helper\nfrom helper import *\nscale = 100\nprint(times(2), helper.__name__)\n",
        );
        assert_eq!(out, "loading\n6 helper\n");
    }

    #[test]
    fn without_a_script_folder_the_import_is_not_found() {
        let dir = folder_with(&[("helper.py", "x = 1\n")]);
        let (_, err) = run_in(None, "import helper\n");
        assert!(
            err.as_deref()
                .is_some_and(|e| e.contains("No module named 'helper'")),
            "{err:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_error_in_the_module_leaves_it_unimported() {
        let out = output_next_to(
            &[("broken.py", "x = 1\nraise ValueError('half done')\n")],
            "for _ in range(2):\n    try:\n        import broken\n    except ValueError as e:\n        print(e)\n",
        );
        assert_eq!(out, "half done\nhalf done\n");
    }

    #[test]
    fn registered_modules_win_and_names_never_leave_the_folder() {
        let out = output_next_to(
            &[("math.py", "pi = 3\n")],
            "import math\nprint(math.pi > 3)\n",
        );
        assert_eq!(out, "True\n");
        assert!(!is_module_name("../etc"));
        assert!(!is_module_name(""));
        assert!(!is_module_name("1x"));
        assert!(is_module_name("_prelude2"));
    }
}

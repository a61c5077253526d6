//! The interpreter through its public API: outputs, error types and messages, tracebacks,
//! classes as the torch preludes use them, native objects, drop timing and limits.

use cudatutor::script::{Interpreter, Limits, ScriptError};

fn run(src: &str) -> (String, Option<ScriptError>) {
    let mut it = Interpreter::new(Limits::default());
    let r = it.run_main(src, "exercise.py");
    (it.take_stdout(), r.err())
}

fn out(src: &str) -> String {
    let (o, e) = run(src);
    if let Some(e) = e {
        panic!("script failed: {}\nstdout so far:\n{o}", e.traceback);
    }
    o
}

fn err(src: &str) -> (String, String) {
    let (_, e) = run(src);
    let e = e.expect("script should fail");
    (e.type_name, e.message)
}

/// Dev helper: `CUDATUTOR_SCRIPT=file.py cargo test --test script_eval run_file -- --ignored --nocapture`.
#[test]
#[ignore]
fn run_file() {
    let Ok(path) = std::env::var("CUDATUTOR_SCRIPT") else {
        return;
    };
    let src = std::fs::read_to_string(&path).unwrap_or_default();
    let (o, e) = run(&src);
    print!("{o}");
    if let Some(e) = e {
        eprint!("{}", e.traceback);
    }
}

#[test]
fn arithmetic() {
    assert_eq!(
        out("print(1 + 2 * 3, 7 // 2, -7 // 2, 7 % -3, 2 ** 10, 7 / 2)"),
        "7 3 -4 -2 1024 3.5\n"
    );
}

#[test]
fn name_error() {
    assert_eq!(
        err("print(x)"),
        ("NameError".into(), "name 'x' is not defined".into())
    );
}

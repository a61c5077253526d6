//! The interpreter through its public API: outputs, error types and messages, tracebacks,
//! classes as the torch preludes use them, native objects, drop timing and limits.

use cudatutor::script::{Interpreter, Limits};

/// What a failed run reports (ScriptError without the exception value, so it can cross threads).
#[derive(Debug)]
struct Failure {
    type_name: String,
    message: String,
    line: Option<u32>,
    traceback: String,
}

/// Runs on an 8 MiB thread, like the runner does (the test harness's threads have 2 MiB).
fn run(src: &str) -> (String, Option<Failure>) {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let mut it = Interpreter::new(Limits::default());
            let r = it.run_main(&src, "exercise.py");
            let f = r.err().map(|e| Failure {
                type_name: e.type_name,
                message: e.message,
                line: e.line,
                traceback: e.traceback,
            });
            (it.take_stdout(), f)
        })
        .expect("spawn")
        .join()
        .expect("interpreter thread panicked")
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
    if std::env::var("CUDATUTOR_SPLIT").is_ok() {
        // One snippet per "# ---" section: its stdout, then its exception's last line.
        for part in src.split("# ---\n") {
            let (o, e) = run(part);
            print!("{o}");
            if let Some(e) = e {
                println!("{}", e.traceback.lines().last().unwrap_or(""));
            }
            println!("=====");
        }
        return;
    }
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

/// Prints the Rust stack one Python call costs (debug builds are much hungrier than release).
#[test]
fn stack_per_python_frame() {
    let h = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            let mut it = Interpreter::new(Limits::default());
            it.set_main_global(
                "stack_used",
                cudatutor::script::Value::native_fn("stack_used", |it, _| Ok(cudatutor::script::Value::Int(it.stack_used() as i64))),
            );
            let src = "def f(n):\n    if n == 0:\n        return stack_used()\n    return f(n - 1)\nprint(f(0), f(100))\n";
            it.run_main(src, "exercise.py").map_err(|e| e.traceback).expect("runs");
            it.take_stdout()
        })
        .expect("spawn");
    let o = h.join().expect("join");
    let v: Vec<i64> = o
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    eprintln!("stack per Python frame: {} bytes", (v[1] - v[0]) / 100);
    assert!(v[1] > v[0]);
}

#[test]
fn deep_recursion_is_a_recursion_error() {
    let (_, e) = run("def f(n):\n    return f(n + 1)\nf(0)\n");
    let e = e.expect("fails");
    assert_eq!(e.type_name, "RecursionError");
    assert_eq!(e.message, "maximum recursion depth exceeded");
}

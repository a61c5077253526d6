//! Pathological scripts through the real run path (`cudatutor::run::run_script` on the sim
//! backend, which runs the interpreter on its 256 MiB-stack thread as `cudatutor run` and the
//! pager do): deep nesting, huge literals, endless loops, endless recursion, huge containers,
//! huge strings and huge output. Every one must end with a clear Python exception or succeed:
//! never a panic, a native stack overflow, an abort on a failed allocation, or a hang.
//!
//! Generated cases (proptest, fixed case counts) mix the same ingredients at random depths;
//! scripts that once broke something live in tests/corpus/scripts/ and run on every build.

/// The interpreter runs in this test process: its heap is counted for the run budget as in
/// the binary (src/main.rs), so hoarding meets MemoryError here too.
#[global_allocator]
static ALLOCATOR: cudatutor::budget::CountingAlloc = cudatutor::budget::CountingAlloc;

use std::time::{Duration, Instant};

use cudatutor::run::{BackendChoice, RunOptions, RunReport, run_script};
use proptest::prelude::*;

fn opts(wall: Duration) -> RunOptions {
    RunOptions {
        backend: BackendChoice::Sim,
        max_wall: wall,
        ..RunOptions::default()
    }
}

/// Runs `src` as `cudatutor run` would and checks the run ended in bounded time; a panic in
/// the run comes back as the "internal error" report and fails here.
fn run_with(src: &str, o: &RunOptions) -> RunReport {
    let t = Instant::now();
    let r = run_script(src, o);
    let took = t.elapsed();
    assert!(
        took < o.max_wall + Duration::from_secs(20),
        "took {took:?} (wall limit {:?})",
        o.max_wall
    );
    if let Some(e) = &r.error {
        assert!(
            !e.message.contains("internal error"),
            "the run panicked: {}",
            e.traceback
        );
        assert!(!e.type_name.is_empty(), "{e:?}");
        assert!(
            e.traceback.trim_end().ends_with(&format!(
                "{}{}{}",
                e.type_name,
                if e.message.is_empty() { "" } else { ": " },
                e.message
            )) || e.traceback.contains(&e.message),
            "traceback does not end with the error: {:?}",
            e.traceback
        );
    }
    r
}

fn run(src: &str) -> RunReport {
    run_with(src, &opts(Duration::from_secs(5)))
}

/// Where `r` failed, its error is of one of `types` (`what`: the case, for the message).
fn any_error_is_one_of(r: &RunReport, types: &[&str], what: &str) {
    if let Some(e) = &r.error {
        assert!(types.contains(&e.type_name.as_str()), "{what}: {}", err(r));
    }
}

/// `r` printed `stdout`, or failed with an error starting with one of `starts`.
fn printed_or_raised(r: &RunReport, stdout: &str, starts: &[&str]) {
    if r.ok {
        assert_eq!(r.stdout, stdout);
    } else {
        err_starting(r, starts);
    }
}

/// The error's last traceback line, which must start with one of `starts`: that line.
fn err_starting(r: &RunReport, starts: &[&str]) -> String {
    let e = err(r);
    assert!(
        starts.iter().any(|s| e.starts_with(s)),
        "expected an error starting with one of {starts:?}: {e}"
    );
    e
}

/// The error's last traceback line, `Type: message`.
fn err(r: &RunReport) -> String {
    let e = r
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("expected an error, got stdout {:?}", r.stdout));
    if e.message.is_empty() {
        e.type_name.clone()
    } else {
        format!("{}: {}", e.type_name, e.message)
    }
}

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * n + inner.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

// ---------------------------------------------------------------- nesting

#[test]
fn hundred_thousand_nested_brackets_are_a_syntax_error() {
    for (o, c) in [("(", ")"), ("[", "]"), ("{", "}")] {
        let src = format!("x = {}\n", nested(o, "1", c, 100_000));
        let r = run(&src);
        assert_eq!(err(&r), "SyntaxError: too many nested parentheses", "{o}");
        assert_eq!(r.error.as_ref().unwrap().line, Some(1));
    }
    // Unclosed, and inside a call's arguments.
    let r = run(&format!("print({}\n", "(".repeat(100_000)));
    assert_eq!(err(&r), "SyntaxError: too many nested parentheses");
    let r = run(&format!(
        "f = len\nf({})\n",
        nested("f(", "[]", ")", 100_000)
    ));
    assert_eq!(err(&r), "SyntaxError: too many nested parentheses");
    assert_eq!(r.error.as_ref().unwrap().line, Some(2));
}

#[test]
fn brackets_inside_strings_and_comments_do_not_count() {
    let deep = "(".repeat(100_000);
    let r = run(&format!("s = '{deep}'  # {deep}\nprint(len(s))\n"));
    assert!(r.ok, "{:?}", r.error);
    assert_eq!(r.stdout, "100000\n");
}

#[test]
fn long_operator_chains_are_refused_before_they_recurse() {
    let cases = [
        format!("x = {}1\n", "-".repeat(100_000)),
        format!("x = {}1\n", "~".repeat(100_000)),
        format!("x = {}True\n", "not ".repeat(100_000)),
        format!("x = 2{}\n", "**2".repeat(100_000)),
        format!("f = {}1\n", "lambda: ".repeat(100_000)),
        format!("x = {}1\n", "1 if 1 else ".repeat(100_000)),
        format!("x = 1{}\n", "+1".repeat(100_000)),
        format!("x = 1{}\n", " and 1".repeat(100_000)),
        format!("x = 1{}\n", " < 1".repeat(100_000)),
        format!("x = None\nx{}\n", ".a".repeat(100_000)),
        format!("f = print\nf{}\n", "()".repeat(100_000)),
        format!("x = [0]\nx{}\n", "[0]".repeat(100_000)),
        format!("x = 'a'{}\n", " 'a'".repeat(100_000)),
        format!("x = {}\n", "[1], ".repeat(100_000)),
    ];
    for src in &cases {
        let r = run(src);
        any_error_is_one_of(
            &r,
            &["SyntaxError", "RecursionError", "MemoryError"],
            &format!("{:?}", &src[..40.min(src.len())]),
        );
    }
}

#[test]
fn deeply_nested_blocks_are_an_indentation_error() {
    let mut src = String::new();
    for i in 0..1000 {
        src.push_str(&" ".repeat(i));
        src.push_str("if True:\n");
    }
    src.push_str(&" ".repeat(1000));
    src.push_str("pass\n");
    let r = run(&src);
    assert_eq!(err(&r), "IndentationError: too many levels of indentation");
    // Nested defs, one per line, each calling the next.
    let mut src = String::new();
    for i in 0..500 {
        src.push_str(&format!("{}def f{i}():\n", " ".repeat(i)));
    }
    src.push_str(&format!("{}return 1\n", " ".repeat(500)));
    let r = run(&src);
    assert_eq!(err(&r), "IndentationError: too many levels of indentation");
}

#[test]
fn moderate_nesting_still_runs() {
    let r = run(&format!("x = {}\nprint(x)\n", nested("(", "7", ")", 50)));
    assert!(r.ok, "{:?}", r.error);
    assert_eq!(r.stdout, "7\n");
    let r = run(&format!(
        "x = {}\nprint(len(x))\n",
        nested("[", "", "]", 50)
    ));
    assert_eq!(r.stdout, "1\n");
}

// ---------------------------------------------------------------- huge literals

#[test]
fn ten_million_character_string_literal() {
    let src = format!("s = '{}'\nprint(len(s), s[:3])\n", "ab".repeat(5_000_000));
    printed_or_raised(
        &run(&src),
        "10000000 aba\n",
        &["SyntaxError: ", "MemoryError"],
    );
}

/// 120 000 subscripts on one 600 KB line: each node's traceback position is recorded in
/// constant time (working out the markers per node from the whole line took minutes), and the
/// markers of the one that fails are drawn once.
#[test]
fn a_long_line_of_many_nodes_compiles_in_linear_time() {
    let items = vec!["a[0]"; 120_000].join(",");
    let r = run(&format!("a = [1]\nprint(len([{items}]))\n"));
    assert_eq!(r.stdout, "120000\n", "{:?}", r.error);
    let r = run(&format!("a = [1]\nprint(len([a[5], {items}]))\n"));
    assert_eq!(err(&r), "IndexError: list index out of range");
    let tb = &r.error.as_ref().unwrap().traceback;
    assert!(tb.contains("~^^^\n"), "the failing subscript is marked");
}

#[test]
fn million_digit_int_literal() {
    let src = format!("x = {}\nprint(x > 0)\n", "9".repeat(1_000_000));
    printed_or_raised(
        &run(&src),
        "True\n",
        &[
            "SyntaxError: ",
            "ValueError: ",
            "OverflowError: ",
            "MemoryError",
        ],
    );
    // Computing one: 10**1000000 either works or raises cleanly.
    let r = run("x = 10 ** 1000000\nprint(x > 0)\n");
    if !r.ok {
        err_starting(&r, &["OverflowError", "MemoryError"]);
    }
}

// ---------------------------------------------------------------- endless loops

#[test]
fn while_true_pass_stops_at_a_limit_naming_the_line() {
    let r = run("x = 1\nwhile True:\n    pass\n");
    let e = err(&r);
    assert!(e.starts_with("TimeoutError: the script ran "), "{e}");
    assert!(e.ends_with("(line 3)") || e.ends_with("(line 2)"), "{e}");
    let o = RunOptions {
        max_steps: 100_000,
        ..opts(Duration::from_secs(5))
    };
    let r = run_with("i = 0\nwhile True:\n    i += 1\n", &o);
    assert_eq!(
        err(&r),
        "TimeoutError: the script ran more than 100000 steps (line 3)"
    );
}

#[test]
fn while_true_append_is_stopped() {
    let r = run("x = []\nwhile True:\n    x.append(1)\n");
    let e = err_starting(&r, &["TimeoutError: the script ran ", "MemoryError"]);
    assert!(
        e.contains("(line 3)") || e.starts_with("MemoryError"),
        "{e}"
    );
    // Doubling a list: few steps, exponential memory.
    let r = run("x = [0]\nwhile True:\n    x = x + x\n");
    assert!(err(&r).starts_with("MemoryError"), "{}", err(&r));
    let r = run("x = [0]\nwhile True:\n    x.extend(x)\n");
    assert!(err(&r).starts_with("MemoryError"), "{}", err(&r));
    let r = run("s = 'x'\nwhile True:\n    s += s\n");
    assert!(err(&r).starts_with("MemoryError"), "{}", err(&r));
}

#[test]
fn except_cannot_swallow_the_limit() {
    let r = run("while True:\n    try:\n        pass\n    except BaseException:\n        pass\n");
    assert!(err(&r).starts_with("TimeoutError: the script ran "));
}

// ---------------------------------------------------------------- recursion

#[test]
fn unbounded_recursion_is_a_recursion_error() {
    let cases = [
        "def f(n):\n    return f(n + 1)\nf(0)\n",
        "def f():\n    f()\nf()\n",
        "f = lambda n: f(n)\nf(1)\n",
        "class A:\n    def __repr__(self):\n        return repr(self)\nrepr(A())\n",
        "class A:\n    def __getattr__(self, k):\n        return self.y\nA().x\n",
        "class A:\n    def __eq__(self, o):\n        return self == o\nA() == A()\n",
        "def f(n):\n    return [f(n) for _ in range(1)]\nf(0)\n",
        "import torch\ndef f(t):\n    return f(t + 1)\nf(torch.zeros(2))\n",
    ];
    for src in cases {
        let r = run(src);
        let e = err(&r);
        assert!(
            e.starts_with("RecursionError: maximum recursion depth exceeded"),
            "{src}: {e}"
        );
    }
    // Each frame's `finally` recursing again doubles the work per level (CPython runs
    // "forever" too): the wall limit stops it, and stays tripped while the frames unwind.
    let o = RunOptions {
        max_wall: Duration::from_millis(500),
        ..opts(Duration::from_secs(1))
    };
    let t = Instant::now();
    let r = run_with(
        "def f():\n    try:\n        f()\n    finally:\n        f()\nf()\n",
        &o,
    );
    assert!(
        err(&r).starts_with("TimeoutError: the script ran longer than 0.5 seconds"),
        "{}",
        err(&r)
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // And the script may catch it, as in CPython.
    let r = run(
        "def f():\n    f()\ntry:\n    f()\nexcept RecursionError as e:\n    print('caught', e)\n",
    );
    assert_eq!(r.stdout, "caught maximum recursion depth exceeded\n");
}

#[test]
fn mutual_and_method_recursion() {
    let r = run(
        "class N:\n    def a(self, n):\n        return self.b(n)\n    def b(self, n):\n        return self.a(n)\nN().a(0)\n",
    );
    assert!(err(&r).starts_with("RecursionError"), "{}", err(&r));
}

// ---------------------------------------------------------------- huge containers

#[test]
fn list_of_a_hundred_million_items() {
    printed_or_raised(
        &run("x = [0] * 10**8\nprint(len(x))\ndel x\n"),
        "100000000\n",
        &["MemoryError"],
    );
    // Built item by item it hits the step limit first.
    let r = run("x = [i for i in range(10**8)]\n");
    err_starting(&r, &["TimeoutError", "MemoryError"]);
    let r = run("x = list(range(10**8))\nprint(len(x))\n");
    if !r.ok {
        err_starting(&r, &["TimeoutError", "MemoryError"]);
    }
}

#[test]
fn absurd_sizes_are_memory_errors() {
    for src in [
        "x = [0] * 10**12\n",
        "x = [0, 1] * (2**62)\n",
        "x = 'x' * 10**10\n",
        "x = 'xy' * (2**62)\n",
        "x = b'x' * 10**12\n",
        "x = (0,) * 10**12\n",
        "x = list(range(10**15))\n",
        "x = ' ' * 2**40\n",
        "x = '{:>10000000000}'.format(1)\n",
        "x = 'a'.ljust(10**12)\n",
        "x = 'a'.center(10**12)\n",
        "x = 'a'.zfill(10**12)\n",
        "x = '%10000000000d' % 1\n",
        "x = f'{1:10000000000}'\n",
        "x = ','.join(['ab'] * 10**7) * 10**6\n",
        "x = bytearray(10**12)\n",
        "x = bytes(10**12)\n",
    ] {
        let r = run(src);
        let e = err(&r);
        assert!(
            e.starts_with("MemoryError")
                || e.starts_with("OverflowError")
                || e.starts_with("NameError")
                || e.starts_with("NotImplementedError")
                || e.starts_with("ValueError"),
            "{src}: {e}"
        );
    }
}

#[test]
fn string_repetition_is_cpythons_memory_error() {
    let r = run("s = 'x' * 10**10\n");
    assert_eq!(err(&r), "MemoryError");
    assert_eq!(r.error.as_ref().unwrap().line, Some(1));
    let r = run("try:\n    s = 'x' * 10**10\nexcept MemoryError:\n    print('caught')\n");
    assert_eq!(r.stdout, "caught\n");
}

#[test]
fn deeply_nested_data_is_freed_without_recursion() {
    // Built by a loop, so no parser nesting: a million levels of lists, dicts and tuples,
    // freed when the name is rebound and at the end of the run.
    for (build, check) in [
        (
            "x = []\nfor _ in range(10**6):\n    x = [x]\n",
            "x = None\nprint('freed')\n",
        ),
        (
            "x = {}\nfor _ in range(10**6):\n    x = {'k': x}\n",
            "print('kept')\n",
        ),
        (
            "x = ()\nfor _ in range(10**6):\n    x = (x,)\n",
            "del x\nprint('freed')\n",
        ),
        (
            "class Node:\n    pass\nx = None\nfor _ in range(3 * 10**5):\n    n = Node()\n    n.next = x\n    x = n\nn = None\n",
            "x = None\nprint('freed')\n",
        ),
        (
            "x = []\ny = x\nfor _ in range(3 * 10**5):\n    z = []\n    y.append(z)\n    y = z\ny = None\nz = None\n",
            "x.clear()\nprint('freed')\n",
        ),
    ] {
        // What is tested is the freeing, not the speed: a loaded machine may need more than
        // the exercises' 5 s to build a million levels.
        let r = run_with(&format!("{build}{check}"), &opts(Duration::from_secs(60)));
        assert!(r.ok, "{build}: {:?}", r.error);
        assert!(
            r.stdout == "freed\n" || r.stdout == "kept\n",
            "{}",
            r.stdout
        );
    }
}

#[test]
fn printing_and_comparing_deep_data_is_a_recursion_error() {
    let build = "x = []\nfor _ in range(10**5):\n    x = [x]\n";
    for tail in [
        "print(x)\n",
        "repr(x)\n",
        "x == x[0]\n",
        "hash(str(x))\n",
        "import copy\ncopy.deepcopy(x)\n",
        "sorted([x, x])\n",
    ] {
        let r = run(&format!("{build}{tail}"));
        any_error_is_one_of(
            &r,
            &["RecursionError", "ModuleNotFoundError", "TypeError"],
            tail,
        );
    }
}

// ---------------------------------------------------------------- output

#[test]
fn huge_print_output_is_capped_and_says_so() {
    let r = run("for i in range(10**6):\n    print('x' * 1000)\n");
    let n = r.stdout.len();
    assert!(n < 64 << 20, "kept {n} bytes of output");
    assert!(
        r.stdout.contains("output truncated") || r.stderr.contains("output truncated"),
        "the cap says so: {:?}",
        &r.stdout[n.saturating_sub(200)..]
    );
    // A single enormous print too.
    let r = run("print('y' * 10**8)\n");
    assert!(r.stdout.len() < 64 << 20);
}

// ---------------------------------------------------------------- corpus

/// Every script in tests/corpus/scripts/ once broke something; each must now end cleanly
/// (its first line, a comment, may name the expected `Type: message` prefix).
#[test]
fn corpus_scripts_end_cleanly() {
    let dir = std::path::Path::new("tests/corpus/scripts");
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/corpus/scripts")
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let src = std::fs::read_to_string(&path).unwrap();
        let r = run(&src);
        if let Some(want) = src
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
        {
            let got = if r.ok { "ok".to_string() } else { err(&r) };
            assert!(
                got.starts_with(want.trim()),
                "{}: got {got}",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n > 0);
}

// ---------------------------------------------------------------- generated

const ATOMS: &[&str] = &["1", "x", "'s'", "[]", "None", "f(1)", "t", "2.5", "(1,)"];
const WRAPS: &[(&str, &str)] = &[
    ("(", ")"),
    ("[", "]"),
    ("{", "}"),
    ("{1: ", "}"),
    ("f(", ")"),
    ("-", ""),
    ("not ", ""),
    ("(lambda: ", ")()"),
    ("[", " for _ in [1]]"),
    ("(1 if ", " else 2)"),
    ("x[", "]"),
    ("(", ").real"),
    ("(", " + 1)"),
    ("(", " ** 1)"),
    ("print(", ")"),
];

fn nest_src(layers: &[usize], atom: &str, reps: usize) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for _ in 0..reps {
        for &k in layers {
            let (o, c) = WRAPS[k % WRAPS.len()];
            open.push_str(o);
            close.insert_str(0, c);
        }
    }
    format!("x = [1]\nt = (1,)\ndef f(a=0):\n    return a\ny = {open}{atom}{close}\n")
}

#[test]
fn deep_iterator_and_generator_chains_are_recursion_errors() {
    // CPython 3.11 crashes on these (its C iterators recurse unchecked); here they are
    // RecursionError, and the chains are freed without deep recursion.
    for wrap in [
        "it = map(abs, it)",
        "it = filter(None, it)",
        "it = zip(it)",
        "it = enumerate(it)",
        "it = (x for x in it)",
        "it = passthrough(it)",
    ] {
        let src = format!(
            "def passthrough(i):\n    for x in i:\n        yield x\nit = iter([1, 2])\nfor _ in range(2 * 10**5):\n    {wrap}\nprint(list(it))\n"
        );
        let r = run_with(&src, &opts(Duration::from_secs(60)));
        assert_eq!(
            err(&r),
            "RecursionError: maximum recursion depth exceeded",
            "{wrap}"
        );
        let freed = format!(
            "def passthrough(i):\n    for x in i:\n        yield x\nit = iter([1, 2])\nfor _ in range(2 * 10**5):\n    {wrap}\ndel it\nprint('freed')\n"
        );
        let r = run_with(&freed, &opts(Duration::from_secs(60)));
        assert!(r.ok, "{wrap}: {:?}", r.error);
        assert_eq!(r.stdout, "freed\n");
    }
}

#[test]
fn expensive_builtins_meet_the_wall_limit() {
    // One statement that does millions of units of work (a sort, a search, a copy, a set
    // build, a scan) in a loop: the wall limit binds inside the calls, not 1024 statements
    // later.
    for body in [
        "ys = sorted(xs)",
        "b = -1 in xs",
        "y = xs[:]",
        "s = set(xs)",
        "n = xs.count(-1)",
        "m = max(xs)",
        "t = ','.join(strs)",
    ] {
        let src = format!(
            "xs = list(range(10**6))\nstrs = [str(i) for i in range(10**5)]\nwhile True:\n    {body}\n"
        );
        let wall = Duration::from_secs(2);
        let t = Instant::now();
        let r = run_with(
            &src,
            &RunOptions {
                max_steps: u64::MAX,
                ..opts(wall)
            },
        );
        let took = t.elapsed();
        let e = err(&r);
        assert!(
            e.starts_with("TimeoutError: the script ran longer than 2 seconds"),
            "{body}: {e}"
        );
        assert!(
            took < wall + Duration::from_secs(3),
            "{body}: stopped after {took:?}"
        );
    }
}

#[test]
fn generators_under_limits_and_errors() {
    for (src, want) in [
        (
            "def g():\n    while True:\n        yield 1\nfor _ in g():\n    pass\n",
            "TimeoutError",
        ),
        (
            "def g():\n    yield from g()\nnext(g())\n",
            "RecursionError",
        ),
        (
            "def g():\n    try:\n        yield 1\n    finally:\n        while True:\n            pass\nx = g()\nnext(x)\nx = None\n",
            "TimeoutError",
        ),
        (
            "g = (x for x in range(10**9))\nprint(sum(g))\n",
            "TimeoutError",
        ),
        (
            "def g():\n    x = yield\n    yield x\nv = g()\nnext(v)\nv.send(1)\nv.throw(KeyError('k'))\n",
            "KeyError",
        ),
    ] {
        let o = RunOptions {
            max_steps: 200_000,
            ..opts(Duration::from_secs(5))
        };
        let r = run_with(src, &o);
        let e = err(&r);
        assert!(e.starts_with(want), "{src}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Generators with random bodies (yield inside loops, try/finally, with, nested
    /// generators, early close, send/throw, dropped half-way): always a value or a Python
    /// error, never a crash.
    #[test]
    fn random_generator_bodies(parts in prop::collection::vec(prop::sample::select(vec![
            "yield 1", "yield from range(2)", "x = yield", "return 5", "raise ValueError('v')",
            "for i in range(3):\n        yield i", "try:\n        yield 2\n    finally:\n        yield 3",
            "with ctx():\n        yield 4", "yield from inner()", "next(inner())",
            "while True:\n        yield 0",
        ]), 1..5),
        driver in prop::sample::select(vec![
            "print(list(islice(g(), 20)))", "x = g()\nnext(x)\nx = None",
            "x = g()\nprint(next(x), x.send(7))", "x = g()\nnext(x)\nx.throw(KeyError('k'))",
            "x = g()\nnext(x)\nx.close()", "print(sum(1 for _ in islice(g(), 50)))",
        ])) {
        let src = format!(
            "from itertools import islice\nclass ctx:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        return False\ndef inner():\n    yield 'a'\n    return 'b'\ndef g():\n    {}\n{}\n",
            parts.join("\n    "),
            driver
        );
        let o = RunOptions { max_steps: 100_000, ..opts(Duration::from_secs(5)) };
        let r = run_with(&src, &o);
        if let Some(e) = &r.error {
            prop_assert!(!e.type_name.is_empty(), "{e:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random mixes of brackets, calls, lambdas, comprehensions and operators at depths from
    /// a few to tens of thousands: the result is a value, a Python error, or a SyntaxError.
    #[test]
    fn random_nesting(layers in prop::collection::vec(0usize..WRAPS.len(), 1..6),
                      reps in prop_oneof![1usize..20, 20usize..200, 2000usize..20_000],
                      atom in prop::sample::select(ATOMS)) {
        let src = nest_src(&layers, atom, reps);
        let r = run(&src);
        if let Some(e) = &r.error {
            prop_assert!(e.line.is_some() || e.type_name == "SyntaxError", "{e:?}");
        }
    }

    /// Loops that never end on their own, with a random body: a limit stops each.
    #[test]
    fn random_endless_loops(body in prop::collection::vec(prop::sample::select(vec![
            "pass", "x.append(1)", "s += 'a'", "d[len(d)] = 1", "n += 1", "x = x[-5:]",
            "t = t * 1", "continue", "y = [n] * 3", "print(end='')",
        ]), 1..4)) {
        let src = format!(
            "import torch\nx = []\ns = ''\nd = {{}}\nn = 0\nt = torch.ones(2)\nwhile True:\n    {}\n",
            body.join("\n    ")
        );
        let o = RunOptions { max_steps: 50_000, ..opts(Duration::from_secs(3)) };
        let r = run_with(&src, &o);
        let e = err(&r);
        prop_assert!(e.starts_with("TimeoutError: the script ran "), "{}", e);
    }
}

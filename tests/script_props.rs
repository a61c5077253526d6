//! Property tests: no input makes the interpreter panic or overflow its stack — random bytes,
//! token soups, and mutations of a valid exercise — under a small step limit.

use std::time::Duration;

use cudatutor::script::{Interpreter, Limits};
use proptest::prelude::*;

#[path = "support/runner_stack.rs"]
mod runner_stack;
use runner_stack::on_runner_stack;

const SNIPPET: &str = r#"import math
class Net:
    def __init__(self, k=2):
        self.k = k
        self.items = []
    def __call__(self, x):
        return self.forward(x)
    def forward(self, x):
        self.items.append(x)
        return [v * self.k for v in range(x)]
def loss(xs, *, scale=1.0):
    total = 0
    for i, v in enumerate(xs):
        if v % 2 == 0:
            total += v ** 2
        elif v > 3:
            continue
        else:
            total -= 1
    return total * scale
net = Net()
try:
    out = net(5)
    print(f"{loss(out):.3f}", out[1:3], {k: v for k, v in zip("ab", out)})
except (ValueError, ZeroDivisionError) as e:
    print("error", e)
finally:
    print(math.sqrt(16), len(net.items), "%d/%s" % (1, "x"))
"#;

const TOKENS: &[&str] = &[
    "x",
    "y",
    "f",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    ".",
    "=",
    "==",
    "+",
    "-",
    "*",
    "**",
    "/",
    "//",
    "%",
    "<",
    ">",
    "not",
    "and",
    "or",
    "in",
    "is",
    "if",
    "else",
    "elif",
    "for",
    "while",
    "def",
    "class",
    "return",
    "lambda",
    "try",
    "except",
    "finally",
    "raise",
    "with",
    "as",
    "import",
    "from",
    "del",
    "pass",
    "break",
    "continue",
    "global",
    "nonlocal",
    "yield",
    "async",
    "await",
    "1",
    "0",
    "2.5",
    "'s'",
    "\"t\"",
    "f'{x}'",
    "None",
    "True",
    "*",
    "@",
    "\n",
    "\n    ",
    "\n        ",
    " ",
    "#c",
    "\\",
    ";",
    "print",
    "range",
    "len",
    "super()",
    "self",
    "__init__",
];

/// Run on an 8 MiB thread, as the runner does; a panic or stack overflow fails the test.
fn run(src: String) {
    on_runner_stack(move || {
        let limits = Limits {
            max_steps: 20_000,
            max_wall: Duration::from_secs(2),
            cancel: None,
        };
        let mut it = Interpreter::new(limits);
        let _ = it.run_main(&src, "exercise.py");
        let _ = it.take_stdout();
    });
}

#[test]
fn snippet_runs() {
    let out = on_runner_stack(|| {
        let mut it = Interpreter::new(Limits::default());
        it.run_main(SNIPPET, "exercise.py")
            .map_err(|e| e.traceback)
            .expect("valid snippet runs");
        it.take_stdout()
    });
    assert_eq!(out, "120.000 [2, 4] {'a': 0, 'b': 2}\n4.0 1 1/x\n");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        run(String::from_utf8_lossy(&bytes).into_owned());
    }

    #[test]
    fn token_soup(toks in proptest::collection::vec(proptest::sample::select(TOKENS), 0..120)) {
        run(toks.concat());
    }

    #[test]
    fn token_soup_with_spaces(toks in proptest::collection::vec(proptest::sample::select(TOKENS), 0..120)) {
        run(toks.join(" "));
    }

    #[test]
    fn mutated_snippet(edits in proptest::collection::vec((0usize..2000, 0usize..6, proptest::sample::select(TOKENS)), 1..6)) {
        let mut s: Vec<char> = SNIPPET.chars().collect();
        for (pos, len, tok) in edits {
            let p = pos % (s.len() + 1);
            let end = (p + len).min(s.len());
            s.splice(p..end, tok.chars());
        }
        run(s.into_iter().collect());
    }

    #[test]
    fn line_shuffles(order in proptest::collection::vec(0usize..30, 1..40)) {
        let lines: Vec<&str> = SNIPPET.lines().collect();
        let src: Vec<&str> = order.iter().map(|i| lines[i % lines.len()]).collect();
        run(src.join("\n"));
    }
}

/// Runs `src` with the default limits and returns its stdout (or the traceback).
fn output(src: String) -> String {
    on_runner_stack(move || {
        let mut it = Interpreter::new(Limits::default());
        match it.run_main(&src, "exercise.py") {
            Ok(()) => it.take_stdout(),
            Err(e) => format!("{}{}", it.take_stdout(), e.traceback),
        }
    })
}

fn big(neg: bool, limbs: &[u32]) -> num_bigint::BigInt {
    use num_bigint::{BigInt, Sign};
    BigInt::from_slice(if neg { Sign::Minus } else { Sign::Plus }, limbs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random ints of up to 320 bits (often crossing the i64 boundary) through the
    /// interpreter's operators, compared with num-bigint computing the same thing directly.
    #[test]
    fn big_arithmetic_matches_num_bigint(
        an in any::<bool>(), al in proptest::collection::vec(any::<u32>(), 0..10),
        bn in any::<bool>(), bl in proptest::collection::vec(any::<u32>(), 0..10),
        s in 0u32..200,
    ) {
        use num_integer::Integer;
        use num_traits::{Signed, Zero};
        let (a, b) = (big(an, &al), big(bn, &bl));
        let src = format!(
            "a = {a}\nb = int('{bh}', 16) * {bs}\nprint(a + b)\nprint(a - b)\nprint(a * b)\n\
print(-a, ~a, abs(b))\nprint(a & b, a | b, a ^ b)\nprint(a << {s}, a >> {s})\n\
print(a == b, a < b, a >= b)\nprint(hex(a), hash(a))\nprint(a ** 3)\n\
print(int(str(a)) == a, f'{{a:,}}' == format(a, ','))\n\
if b != 0:\n    print(a // b, a % b, divmod(a, b) == (a // b, a % b))\n",
            bh = b.magnitude().to_str_radix(16),
            bs = if b.is_negative() { -1 } else { 1 },
        );
        let hash = |x: &num_bigint::BigInt| -> i64 {
            let m = num_bigint::BigInt::from((1u64 << 61) - 1);
            let h: i64 = (x.abs() % &m).try_into().unwrap();
            let h = if x.is_negative() { -h } else { h };
            if h == -1 { -2 } else { h }
        };
        let hex = |x: &num_bigint::BigInt| {
            format!("{}0x{}", if x.is_negative() { "-" } else { "" }, x.magnitude().to_str_radix(16))
        };
        let t = |c: bool| if c { "True" } else { "False" };
        let mut want = format!(
            "{}\n{}\n{}\n{} {} {}\n{} {} {}\n{} {}\n{} {} {}\n{} {}\n{}\nTrue True\n",
            &a + &b, &a - &b, &a * &b,
            -&a, -(&a + 1u32), b.abs(),
            &a & &b, &a | &b, &a ^ &b,
            &a << s, &a >> s,
            t(a == b), t(a < b), t(a >= b),
            hex(&a), hash(&a),
            a.pow(3u32),
        );
        if !b.is_zero() {
            want += &format!("{} {} True\n", a.div_floor(&b), a.mod_floor(&b));
        }
        prop_assert_eq!(output(src), want);
    }
}

//! Interpreter speed on a loop-heavy script (nested loops, calls, list appends, attribute
//! access on instances — the shapes of a training loop), plus start-up (new interpreter +
//! parse + run of a tiny script). `scripts/bench-interp.sh` runs the same script under
//! python3 and prints the ratio.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::script::{Interpreter, Limits};
use std::hint::black_box;

/// The benchmark script (also used by scripts/bench-interp.sh).
pub const LOOPS: &str = r#"
class Acc:
    def __init__(self):
        self.total = 0
    def add(self, v):
        self.total += v

def square(x):
    return x * x

acc = Acc()
out = []
for i in range(300):
    for j in range(100):
        acc.add(square(i % 7) + j)
    out.append(acc.total % 1000)
d = {}
for k in range(5000):
    d[k % 97] = d.get(k % 97, 0) + 1
s = sum([v * 2 for v in out]) + len(d)
print(s)
"#;

fn loops(c: &mut Criterion) {
    c.bench_function("interp_loops_30k_iterations", |b| {
        b.iter(|| {
            let mut it = Interpreter::new(Limits::default());
            it.run_main(LOOPS, "bench.py").expect("bench script runs");
            black_box(it.take_stdout());
        })
    });
}

fn startup(c: &mut Criterion) {
    c.bench_function("interp_startup_tiny_script", |b| {
        b.iter(|| {
            let mut it = Interpreter::new(Limits::default());
            it.run_main("x = [1, 2, 3]\nprint(sum(x))\n", "bench.py")
                .expect("runs");
            black_box(it.take_stdout());
        })
    });
}

criterion_group!(benches, loops, startup);
criterion_main!(benches);

//! `--backend emulated` gives the sim's report for every built-in lesson exercise: the
//! solution and the starting code (which is where the device-side asserts are) of each exercise
//! run on the sim in this process and on the emulated device (kernels/*.cu compiled for the
//! CPU) through the worker, as `cudatutor run --backend emulated` runs them, and the reports
//! must agree: stdout, stderr, the error (type, message, reported line, origin line, device
//! log), the allocator counters and the check results. Exercises that cannot agree yet are
//! listed with their reason in tests/emulated_known_gaps.txt (the test fails when a listed one
//! starts to agree, so the list cannot go stale).

use cudatutor::classroom::grade::exercise_options;
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::run::worker::WorkerClient;
use cudatutor::run::{BackendChoice, RunOptions, RunReport, run_exercise_in_process};
use std::collections::BTreeMap;

/// The fields of a report the two backends must agree on, as `(field, text)`.
fn comparable(r: &RunReport) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("ok", r.ok.to_string()),
        ("stdout", r.stdout.clone()),
        ("stderr", r.stderr.clone()),
        ("internal_error", format!("{:?}", r.internal_error)),
    ];
    match &r.error {
        None => v.push(("error", "None".into())),
        Some(e) => {
            v.push(("error.type", e.type_name.clone()));
            v.push(("error.message", e.message.clone()));
            v.push(("error.line", format!("{:?}", e.line)));
            v.push(("error.origin_line", format!("{:?}", e.origin_line)));
            v.push(("error.device_log", e.device_log.join("\n")));
        }
    }
    // the counters, without the device's name (which says which backend ran)
    let mut memory = r.memory.clone();
    for d in &mut memory.devices {
        d.name.clear();
    }
    v.push(("memory", format!("{memory:?}")));
    v.push((
        "checks",
        r.checks
            .iter()
            .map(|c| format!("{} {} {:?}", c.line, c.passed, c.message))
            .collect::<Vec<_>>()
            .join("\n"),
    ));
    v
}

/// How a listed run may differ from the sim (tests/emulated_known_gaps.txt).
#[derive(Debug, Default, Clone, Copy)]
struct Allowed {
    /// Floating-point numbers in the texts agree to float32 rounding (relative 1e-6), not bit
    /// for bit.
    float: bool,
    /// Device-log lines name the same kernel file, function, block, thread and condition, at
    /// another path and line (`/pytorch/.../Loss.cu:250:` vs `/__w/pytorch/.../Loss.cu:244:`).
    location: bool,
    /// Anything: the reason says what (the test only checks that the run still differs).
    differs: bool,
}

/// `text` with every `<path>/<File>.cu:<line>:` word reduced to `<File>.cu:`.
fn without_locations(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            line.split_inclusive(' ')
                .map(|word| match word.trim_end().strip_suffix(':') {
                    Some(loc) if loc.contains(".cu:") => {
                        let file = loc.rsplit('/').next().unwrap_or(loc);
                        let file = file.split(".cu:").next().unwrap_or(file);
                        format!("{file}.cu: ")
                    }
                    _ => word.to_string(),
                })
                .collect::<String>()
        })
        .collect()
}

/// The texts split into numbers and the text between them.
fn tokens(text: &str) -> Vec<Result<f64, String>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let (mut i, mut text_start) = (0, 0);
    while i < b.len() {
        let starts_number =
            b[i].is_ascii_digit() || (b[i] == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit());
        if !starts_number {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < b.len()
            && (b[j].is_ascii_digit()
                || b[j] == b'.'
                || ((b[j] == b'e' || b[j] == b'E')
                    && j + 1 < b.len()
                    && (b[j + 1].is_ascii_digit() || b[j + 1] == b'-' || b[j + 1] == b'+'))
                || ((b[j] == b'-' || b[j] == b'+') && (b[j - 1] == b'e' || b[j - 1] == b'E')))
        {
            j += 1;
        }
        match text[i..j].parse::<f64>() {
            Ok(v) => {
                out.push(Err(text[text_start..i].to_string()));
                out.push(Ok(v));
                text_start = j;
            }
            Err(_) => {}
        }
        i = j;
    }
    out.push(Err(text[text_start..].to_string()));
    out
}

/// Equal but for float32 rounding of the numbers in them.
fn close(a: &str, b: &str) -> bool {
    let (ta, tb) = (tokens(a), tokens(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| match (x, y) {
            (Ok(x), Ok(y)) => x == y || (x - y).abs() <= 1e-6 * x.abs().max(y.abs()),
            (Err(x), Err(y)) => x == y,
            _ => false,
        })
}

/// The first field where the two reports differ beyond what `allowed` lets through, with
/// both texts.
fn first_difference(
    sim: &RunReport,
    emu: &RunReport,
    allowed: Allowed,
) -> Option<(String, String, String)> {
    comparable(sim)
        .into_iter()
        .zip(comparable(emu))
        .find(|((field, a), (_, b))| {
            let (mut a, mut b) = (a.clone(), b.clone());
            if allowed.location {
                (a, b) = (without_locations(&a), without_locations(&b));
            }
            if allowed.float && *field != "memory" {
                !close(&a, &b)
            } else {
                a != b
            }
        })
        .map(|((field, a), (_, b))| (field.to_string(), a, b))
}

/// tests/emulated_known_gaps.txt: `exercise-id/which  kinds  reason` lines (`#` comments),
/// kinds a comma list of `float`, `location`, `differs`.
fn known_gaps() -> BTreeMap<String, (Allowed, String)> {
    parse_gaps(include_str!("emulated_known_gaps.txt"))
}

/// A gaps file's entries (see [`known_gaps`]).
fn parse_gaps(text: &str) -> BTreeMap<String, (Allowed, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let key = words.next().unwrap_or_default().to_string();
            let kinds = words.next().unwrap_or_default();
            let reason = words.collect::<Vec<_>>().join(" ");
            assert!(!reason.is_empty(), "{key}: a known gap needs its reason");
            let mut allowed = Allowed::default();
            for k in kinds.split(',') {
                match k {
                    "float" => allowed.float = true,
                    "location" => allowed.location = true,
                    "differs" => allowed.differs = true,
                    other => panic!("{key}: unknown kind {other:?}"),
                }
            }
            (key, (allowed, reason))
        })
        .collect()
}

#[test]
fn every_lesson_exercise_runs_on_the_emulated_device_as_on_the_sim() {
    if !cudatutor::engine::cuda::emulated::built() {
        // build.rs found no C++ compiler: the emulated device does not exist in this build
        // (scripts/test.sh installs g++, so the suite never takes this branch)
        assert!(
            std::env::var_os("CUDATUTOR_REQUIRE_EMULATED").is_none(),
            "the emulated device is not built"
        );
        return;
    }
    let gaps = known_gaps();
    let mut client = WorkerClient::with_program(env!("CARGO_BIN_EXE_cudatutor").into());
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let (mut same, mut runs) = (0, 0);
    let mut failures = Vec::new();
    let mut gaps_seen = Vec::new();
    let (mut launches, mut fallbacks) = (0u64, BTreeMap::new());
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let mut codes = vec![("start", ex.start_code.clone())];
            if let Some(s) = &ex.solution {
                codes.push(("solution", s.clone()));
            }
            for (which, code) in codes {
                let key = format!("{}/{which}", ex.id);
                let sim_opts = exercise_options(lesson, ex, &RunOptions::default());
                let emu_opts = RunOptions {
                    backend: BackendChoice::Emulated,
                    ..sim_opts.clone()
                };
                let sim = run_exercise_in_process(&code, ex.check.as_deref(), &sim_opts);
                let emu = client.run(&code, ex.check.as_deref(), &emu_opts);
                runs += 1;
                assert_eq!(sim.backend, "sim", "{key}");
                assert_eq!(emu.backend, "emulated", "{key}: {:?}", emu.internal_error);
                if let Some(u) = &emu.device_usage {
                    launches += u.launches;
                    for (op, n) in &u.fallbacks {
                        *fallbacks.entry(op.clone()).or_insert(0u64) += n;
                    }
                }
                let exact = first_difference(&sim, &emu, Allowed::default());
                match (exact, gaps.get(&key)) {
                    (None, None) => same += 1,
                    (None, Some(_)) => failures.push(format!(
                        "{key} now agrees with the sim: remove it from emulated_known_gaps.txt"
                    )),
                    (Some(_), Some((allowed, _))) => {
                        gaps_seen.push(key.clone());
                        if !allowed.differs
                            && let Some((field, a, b)) = first_difference(&sim, &emu, *allowed)
                        {
                            failures.push(format!(
                                "{key}: {field} differs beyond {allowed:?}\n--- sim\n{a}\n--- emulated\n{b}\n"
                            ));
                        }
                    }
                    (Some((field, a, b)), None) => failures.push(format!(
                        "{key}: {field} differs\n--- sim\n{a}\n--- emulated\n{b}\n"
                    )),
                }
            }
        }
    }
    for key in gaps.keys() {
        if !gaps_seen.contains(key) && !failures.iter().any(|f| f.starts_with(key.as_str())) {
            failures.push(format!(
                "{key} is in emulated_known_gaps.txt but was not run"
            ));
        }
    }
    eprintln!(
        "emulated vs sim: {same} of {runs} runs identical, {} known gaps",
        gaps_seen.len()
    );
    eprintln!("kernel launches: {launches}; host fallbacks (op: count): {fallbacks:?}");
    assert!(launches > 0, "no kernel ran on the emulated device");
    assert!(runs >= 40, "only {runs} runs: were the lessons found?");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The outcome of one comparison against the gaps list: agrees, a listed gap (within its
/// kinds, else a failure), or a failure.
fn judge(
    key: &str,
    sim: &RunReport,
    emu: &RunReport,
    gaps: &BTreeMap<String, (Allowed, String)>,
    same: &mut usize,
    gaps_seen: &mut Vec<String>,
    failures: &mut Vec<String>,
) {
    let exact = first_difference(sim, emu, Allowed::default());
    match (exact, gaps.get(key)) {
        (None, None) => *same += 1,
        (None, Some(_)) => failures.push(format!(
            "{key} now agrees with the sim: remove it from its known-gaps file"
        )),
        (Some(_), Some((allowed, _))) => {
            gaps_seen.push(key.to_string());
            if !allowed.differs
                && let Some((field, a, b)) = first_difference(sim, emu, *allowed)
            {
                failures.push(format!(
                    "{key}: {field} differs beyond {allowed:?}\n--- sim\n{a}\n--- emulated\n{b}\n"
                ));
            }
        }
        (Some((field, a, b)), None) => failures.push(format!(
            "{key}: {field} differs\n--- sim\n{a}\n--- emulated\n{b}\n"
        )),
    }
}

/// Every tests/cuda/*.py script (the scripts scripts/gpu-check.sh records on real PyTorch and
/// runs on every backend), run as `cudatutor run tests/cuda/NAME.py` runs it, with and without
/// CUDA_LAUNCH_BLOCKING=1, on the sim in this process and on the emulated device through the
/// worker: the same report fields as the lessons' must agree. Known differences are listed
/// with their reason in tests/emulated_known_gaps_scripts.txt (stale entries fail).
#[test]
fn every_cuda_test_script_runs_on_the_emulated_device_as_on_the_sim() {
    if !cudatutor::engine::cuda::emulated::built() {
        assert!(
            std::env::var_os("CUDATUTOR_REQUIRE_EMULATED").is_none(),
            "the emulated device is not built"
        );
        return;
    }
    let gaps = parse_gaps(include_str!("emulated_known_gaps_scripts.txt"));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda");
    let mut scripts: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    let mut client = WorkerClient::with_program(env!("CARGO_BIN_EXE_cudatutor").into());
    let (mut same, mut runs) = (0, 0);
    let mut failures = Vec::new();
    let mut gaps_seen = Vec::new();
    let (mut launches, mut fallbacks) = (0u64, BTreeMap::new());
    for path in &scripts {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let code = std::fs::read_to_string(path).unwrap();
        for (mode, env) in [
            ("async", vec![]),
            (
                "blocking",
                vec![("CUDA_LAUNCH_BLOCKING".to_string(), "1".to_string())],
            ),
        ] {
            let key = format!("{name}/{mode}");
            let sim_opts = RunOptions {
                filename: name.clone(),
                argv0: Some(format!("tests/cuda/{name}")),
                env,
                ..RunOptions::default()
            };
            let emu_opts = RunOptions {
                backend: BackendChoice::Emulated,
                ..sim_opts.clone()
            };
            let sim = run_exercise_in_process(&code, None, &sim_opts);
            let emu = client.run(&code, None, &emu_opts);
            runs += 1;
            assert_eq!(sim.backend, "sim", "{key}");
            assert_eq!(emu.backend, "emulated", "{key}: {:?}", emu.internal_error);
            if let Some(u) = &emu.device_usage {
                launches += u.launches;
                for (op, n) in &u.fallbacks {
                    *fallbacks.entry(op.clone()).or_insert(0u64) += n;
                }
            }
            judge(
                &key,
                &sim,
                &emu,
                &gaps,
                &mut same,
                &mut gaps_seen,
                &mut failures,
            );
        }
    }
    for key in gaps.keys() {
        if !gaps_seen.contains(key) && !failures.iter().any(|f| f.starts_with(key.as_str())) {
            failures.push(format!(
                "{key} is in emulated_known_gaps_scripts.txt but was not run"
            ));
        }
    }
    eprintln!(
        "tests/cuda scripts, emulated vs sim: {same} of {runs} runs identical, {} known gaps",
        gaps_seen.len()
    );
    eprintln!("kernel launches: {launches}; host fallbacks (op: count): {fallbacks:?}");
    assert!(launches > 0, "no kernel ran on the emulated device");
    assert!(runs >= 40, "only {runs} runs: were the scripts found?");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

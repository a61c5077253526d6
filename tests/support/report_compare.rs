//! Comparing two run reports of the same code on two backends (the sim against the emulated
//! device in tests/emulated_backend.rs, against the real GPU in tests/cuda/main.rs): which
//! fields must agree, how float32 rounding and kernel locations may be let through, and the
//! known-gaps files that list the runs allowed to differ (with their reason).
#![allow(dead_code)]

use cudatutor::classroom::grade::exercise_options;
use cudatutor::lesson::{Catalog, Exercise};
use cudatutor::run::{RunOptions, RunReport};
use std::collections::BTreeMap;

/// Every exercise's starting code (where the device-side asserts are) and solution in
/// `catalog`, lesson by lesson, as (exercise, key, code, the options it runs under on the sim);
/// the key, `id/start` or `id/solution`, is how the known-gaps files name the run.
pub(crate) fn lesson_runs(catalog: &Catalog) -> Vec<(&Exercise, String, String, RunOptions)> {
    let mut runs = Vec::new();
    for lesson in &catalog.lessons {
        for ex in &lesson.exercises {
            let sim_opts = exercise_options(lesson, ex, &RunOptions::default());
            let solution = ex.solution.iter().map(|s| ("solution", s));
            for (which, code) in std::iter::once(("start", &ex.start_code)).chain(solution) {
                let key = format!("{}/{which}", ex.id);
                runs.push((ex, key, code.clone(), sim_opts.clone()));
            }
        }
    }
    runs
}

/// The fields of a report the two backends must agree on, as `(field, text)`.
pub(crate) fn comparable(r: &RunReport) -> Vec<(&'static str, String)> {
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
pub(crate) struct Allowed {
    /// Floating-point numbers in the texts agree to float32 rounding (relative 1e-6), not bit
    /// for bit.
    pub float: bool,
    /// Device-log lines name the same kernel file, function, block, thread and condition, at
    /// another path and line (`/pytorch/.../Loss.cu:250:` vs `/__w/pytorch/.../Loss.cu:244:`).
    pub location: bool,
    /// Anything: the reason says what (the test only checks that the run still differs).
    pub differs: bool,
    /// With `float`: the relative bound (0 means 1e-6, one float32 rounding or so).
    pub rel: f64,
}

/// `text` with every `<path>/<File>.cu:<line>:` word reduced to `<File>.cu:`.
pub(crate) fn without_locations(text: &str) -> String {
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
pub(crate) fn tokens(text: &str) -> Vec<Result<f64, String>> {
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
        if let Ok(v) = text[i..j].parse::<f64>() {
            out.push(Err(text[text_start..i].to_string()));
            out.push(Ok(v));
            text_start = j;
        }
        i = j;
    }
    out.push(Err(text[text_start..].to_string()));
    out
}

/// Equal but for float32 rounding of the numbers in them.
pub(crate) fn close(a: &str, b: &str) -> bool {
    close_within(a, b, 1e-6)
}

/// [`close`] with the relative bound `rel`.
pub(crate) fn close_within(a: &str, b: &str, rel: f64) -> bool {
    let (ta, tb) = (tokens(a), tokens(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| match (x, y) {
            (Ok(x), Ok(y)) => x == y || (x - y).abs() <= rel * x.abs().max(y.abs()),
            (Err(x), Err(y)) => x == y,
            _ => false,
        })
}

/// The first field where the two reports differ beyond what `allowed` lets through, with
/// both texts.
pub(crate) fn first_difference(
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
                let rel = if allowed.rel > 0.0 { allowed.rel } else { 1e-6 };
                !close_within(&a, &b, rel)
            } else {
                a != b
            }
        })
        .map(|((field, a), (_, b))| (field.to_string(), a, b))
}

/// A known-gaps file (tests/emulated_known_gaps.txt): `exercise-id/which  kinds  reason` lines (`#` comments),
/// kinds a comma list of `float`, `float:REL` (float with the relative bound REL, e.g.
/// `float:1e-5`), `location`, `differs`.
pub(crate) fn known_gaps(text: &str) -> BTreeMap<String, (Allowed, String)> {
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
                    _ if k.starts_with("float:") => {
                        allowed.float = true;
                        allowed.rel = k["float:".len()..]
                            .parse()
                            .unwrap_or_else(|_| panic!("{key}: bad relative bound in {k:?}"));
                    }
                    "differs" => allowed.differs = true,
                    other => panic!("{key}: unknown kind {other:?}"),
                }
            }
            (key, (allowed, reason))
        })
        .collect()
}

/// A failure for each entry of a known-gaps file (`file`) that no run was `seen` to need and
/// that has no failure of its own: an entry for a run that `missing` (was not run, was not
/// recorded), so the file cannot go stale.
pub(crate) fn stale_gaps<'a>(
    gaps: impl IntoIterator<Item = &'a String>,
    seen: &[String],
    failures: &mut Vec<String>,
    file: &str,
    missing: &str,
) {
    for key in gaps {
        if !seen.contains(key) && !failures.iter().any(|f| f.starts_with(key.as_str())) {
            failures.push(format!("{key} is in {file} but {missing}"));
        }
    }
}

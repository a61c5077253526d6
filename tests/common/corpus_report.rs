//! What a differential corpus says about the engine, for the people fixing it: each failing
//! script gets one cause (the first thing that went wrong, in the order a reader would look:
//! a time-out, an exception PyTorch did not raise, a missing one, the exit status, stderr, then
//! the first differing stdout line), the report counts matches per group (the file-name prefix
//! before the first `_`: `basics`, `so`, `f32`, ...) and lists the commonest causes.
//! Used by tests/common/differential.rs when CORPUS_REPORT / CORPUS_GAPS_OUT are set.

#![allow(dead_code)]

use std::collections::BTreeMap;

/// One script's verdict.
#[derive(Debug)]
pub(crate) struct Checked {
    pub name: String,
    /// None when it matched; else every difference, for the test's failure message.
    pub problem: Option<String>,
    /// The cause the report groups by (empty when it matched).
    pub cause: String,
    /// The same cause with this script's specifics (the differing tokens), for KNOWN_GAPS.
    pub reason: String,
}

/// What the recording and the run produced.
pub(crate) struct Observed<'a> {
    pub want_stdout: &'a [u8],
    pub got_stdout: &'a [u8],
    pub want_last_err: &'a str,
    pub got_last_err: &'a str,
    pub want_code: i32,
    pub got_code: Option<i32>,
    pub timed_out: bool,
    /// The script seeds a random generator before printing (its numbers come from the RNG).
    pub seeded: bool,
}

/// The exception type of a traceback's last line (`RuntimeError: ...` -> `RuntimeError`).
fn exception_type(line: &str) -> &str {
    line.split_once(':').map_or(line, |(t, _)| t).trim()
}

/// An error that says the engine lacks something, rather than one PyTorch would raise.
fn engine_gap(line: &str) -> bool {
    let t = exception_type(line);
    line.contains("has no attribute")
        || line.contains("not supported")
        || line.contains("not implemented")
        || matches!(
            t,
            "NotImplementedError" | "ModuleNotFoundError" | "ImportError" | "NameError"
        )
}

/// Digit runs that stand alone (sizes, indices, values) become `N`, so one message about
/// different shapes groups together; digits inside a name (`conv2d`, `log1p`) stay.
pub(crate) fn normalise(line: &str) -> String {
    normalise_numbers(line, false)
}

/// `normalise`; with `exponents`, a run also takes `e`, `-` and `+` (`1e-05`), so messages
/// about different float values group together too (tests/conformance's verdicts).
pub(crate) fn normalise_numbers(line: &str, exponents: bool) -> String {
    let chars: Vec<char> = line.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && !word(i.checked_sub(1).and_then(|j| chars.get(j))) {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || chars[j] == '.'
                    || (exponents && matches!(chars[j], 'e' | '-' | '+')))
            {
                j += 1;
            }
            if !word(chars.get(j)) {
                out.push('N');
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// `s` cut to `max` characters, `...` marking a cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}...")
    }
}

/// The surrounding non-blank run of `line` at char index `at`.
fn token_at(line: &str, at: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let at = at.min(chars.len() - 1);
    let mut a = at;
    while a > 0 && !chars[a - 1].is_whitespace() {
        a -= 1;
    }
    let mut b = at;
    while b < chars.len() && !chars[b].is_whitespace() {
        b += 1;
    }
    chars[a..b.max(a)].iter().collect()
}

/// The line with its numbers taken out: what is left is the text around them.
fn without_numbers(line: &str) -> String {
    line.chars()
        .filter(|c| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | ' ')))
        .collect()
}

/// (cause, reason) that both say `lead` then an error line: the cause quotes it `normalise`d
/// (so scripts that fail alike on other sizes group together) in `cause_width` chars, the
/// reason quotes it as it is in `reason_width`.
fn quoting(lead: &str, line: &str, cause_width: usize, reason_width: usize) -> (String, String) {
    (
        format!("{lead}{}", clip(&normalise(line), cause_width)),
        format!("{lead}{}", clip(line, reason_width)),
    )
}

/// (cause to group by, reason with this script's specifics).
pub(crate) fn cause(o: &Observed) -> (String, String) {
    let same = |s: String| (s.clone(), s);
    if o.timed_out {
        return same("timed out".to_string());
    }
    let Some(got_code) = o.got_code else {
        return same("killed by a signal".to_string());
    };
    let got_raised = got_code != 0;
    let want_raised = o.want_code != 0;
    if got_raised && o.got_last_err != o.want_last_err {
        let got = o.got_last_err;
        if want_raised && exception_type(got) == exception_type(o.want_last_err) && !engine_gap(got)
        {
            return (
                format!(
                    "different {} message (PyTorch: {})",
                    exception_type(got),
                    clip(&normalise(o.want_last_err), 100)
                ),
                format!(
                    "raises {} where PyTorch raises {}",
                    clip(got, 90),
                    clip(o.want_last_err, 90)
                ),
            );
        }
        let got = if got.is_empty() {
            "nothing on stderr"
        } else {
            got
        };
        return quoting("raises ", got, 110, 150);
    }
    if want_raised && !got_raised {
        return quoting("no error where PyTorch raises ", o.want_last_err, 100, 130);
    }
    if got_code != o.want_code {
        return same(format!(
            "exit status {got_code} where PyTorch exits {}",
            o.want_code
        ));
    }
    if o.got_last_err != o.want_last_err {
        return (
            format!(
                "last stderr line differs (PyTorch: {})",
                clip(&normalise(o.want_last_err), 90)
            ),
            format!(
                "stderr ends {:?} where PyTorch's ends {:?}",
                clip(o.got_last_err, 70),
                clip(o.want_last_err, 70)
            ),
        );
    }
    stdout_cause(o)
}

fn stdout_cause(o: &Observed) -> (String, String) {
    let want = String::from_utf8_lossy(o.want_stdout);
    let got = String::from_utf8_lossy(o.got_stdout);
    let w: Vec<&str> = want.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    let Some(i) = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)) else {
        // Only a trailing newline or the bytes of an invalid UTF-8 sequence differ.
        return (
            "stdout: line endings or bytes differ".to_string(),
            "stdout differs in line endings or raw bytes".to_string(),
        );
    };
    let (Some(wl), Some(gl)) = (w.get(i), g.get(i)) else {
        let what = if g.len() < w.len() {
            "stdout: output ends early"
        } else {
            "stdout: extra output"
        };
        return (
            what.to_string(),
            format!(
                "{what} (line {}: {} expected lines, {} printed)",
                i + 1,
                w.len(),
                g.len()
            ),
        );
    };
    let at = wl
        .chars()
        .zip(gl.chars())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| wl.chars().count().min(gl.chars().count()));
    let (wt, gt) = (token_at(wl, at), token_at(gl, at));
    let specifics = format!(
        "line {}: `{}` where PyTorch prints `{}`",
        i + 1,
        clip(&gt, 50),
        clip(&wt, 50)
    );
    if without_numbers(wl) == without_numbers(gl) {
        let (group, reason) = if o.seeded {
            (
                "stdout: numbers differ (the script draws seeded random numbers)",
                "numbers differ (seeded random draws)",
            )
        } else {
            ("stdout: numbers differ", "numbers differ")
        };
        return (group.to_string(), format!("{reason}, {specifics}"));
    }
    (
        format!(
            "stdout: `{}` where PyTorch prints `{}`",
            clip(&gt, 40),
            clip(&wt, 40)
        ),
        format!("stdout {specifics}"),
    )
}

fn group_of(name: &str) -> &str {
    name.split_once('_').map_or(name, |(g, _)| g)
}

/// The markdown report: matches per group, then the commonest causes with a few examples.
pub(crate) fn render(dir: &str, results: &[Checked], gaps: &[String]) -> String {
    let total = results.len();
    let passed = results.iter().filter(|c| c.problem.is_none()).count();
    let mut out = format!("# {dir}: {passed} of {total} scripts match the recording\n\n");
    out.push_str(
        "| group | scripts | match | share | in KNOWN_GAPS |\n|---|---:|---:|---:|---:|\n",
    );
    let mut groups: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for c in results {
        let e = groups.entry(group_of(&c.name)).or_default();
        e.0 += 1;
        if c.problem.is_none() {
            e.1 += 1;
        }
        if gaps.contains(&c.name) {
            e.2 += 1;
        }
    }
    for (g, (n, ok, listed)) in &groups {
        out.push_str(&format!(
            "| {g} | {n} | {ok} | {:.0}% | {listed} |\n",
            100.0 * *ok as f64 / (*n).max(1) as f64
        ));
    }
    out.push_str(&format!(
        "| **all** | {total} | {passed} | {:.0}% | {} |\n\n",
        100.0 * passed as f64 / total.max(1) as f64,
        gaps.len()
    ));
    let mut causes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for c in results.iter().filter(|c| c.problem.is_some()) {
        causes.entry(&c.cause).or_default().push(&c.name);
    }
    let mut ranked: Vec<(&str, Vec<&str>)> = causes.into_iter().collect();
    ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    out.push_str(&format!(
        "## Most common failure causes ({} distinct; top 30)\n\n| scripts | cause | e.g. |\n|---:|---|---|\n",
        ranked.len()
    ));
    for (cause, names) in ranked.iter().take(30) {
        let eg: Vec<&str> = names.iter().take(3).copied().collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            names.len(),
            cause.replace('|', "\\|"),
            eg.join(", ")
        ));
    }
    out
}

/// Every failing script as a KNOWN_GAPS line with its specific reason.
pub(crate) fn suggested_gaps(results: &[Checked]) -> String {
    let mut out = String::new();
    for c in results.iter().filter(|c| c.problem.is_some()) {
        out.push_str(&format!("{}  # {}\n", c.name, c.reason.replace('\n', " ")));
    }
    out
}

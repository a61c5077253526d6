//! The conformance suite generated from PyTorch's own test database (OpInfo, ModuleInfo,
//! OptimizerInfo; scripts/conformance/generate.py): every tests/conformance/NAME.py runs through
//! `cudatutor run` and its output is compared with PyTorch 2.15's recording
//! (tests/conformance/expected/, scripts/record-pytorch.py) SAMPLE BY SAMPLE: each sample prints
//! lines tagged `[TAG] `, and MANIFEST.tsv lists the samples of every script and the file that
//! runs them. Ops whose samples make the same calls share one file (`ops_*.py`), which prints
//! each sample as `[SCRIPT.TAG] `; a sample is still named by its own script and tag everywhere else
//! (KNOWN_DIFFERENCES, CONFORMANCE_RESULTS, docs/conformance.md).
//!
//! The test fails when a sample differs that tests/conformance/KNOWN_DIFFERENCES does not list
//! (a regression, or a new sample that does not match), and when a listed sample now matches
//! (delete it from the list: the list is exact, so what the coverage table calls identical
//! stays identical). docs/conformance.md is the coverage table; scripts/conformance/report.py
//! regenerates it and the list.
//!
//! Environment: `CONFORMANCE_FILTER=substring` runs the scripts whose name contains it;
//! `CONFORMANCE_RESULTS=FILE` writes one row per sample (script, tag, verdict, kind, cause,
//! detail); `CONFORMANCE_KNOWN_OUT=FILE` writes the KNOWN_DIFFERENCES this run would need.

mod common;

#[path = "conformance/harness/known.rs"]
mod known;
#[path = "conformance/harness/samples.rs"]
mod samples;
#[path = "support/scratch.rs"]
mod scratch;
#[path = "conformance/harness/verdict.rs"]
mod verdict;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::differential::{last_line, run_isolated};
use samples::Sample;
use verdict::{Ending, Finding, Verdict};

const DIR: &str = "tests/conformance";
const RECORDER: &str = "scripts/record-pytorch.py --python .venv-torch/bin/python \
                        --dir tests/conformance --jobs 2";
/// The modules beside the scripts that scripts import, not scripts of their own: the helpers
/// (`from prelude import *`) and the inputs that several scripts use
/// (`from shared_inputs import f32_2x3, ...`).
const SHARED_MODULES: [&str; 2] = ["prelude", "shared_inputs"];
/// Fewer samples than this means the suite was emptied by mistake.
const MIN_SAMPLES: usize = 3000;
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(60);
/// The tag of a script's own behaviour: lines without a tag, tags PyTorch never printed, or an
/// exit status that differs although every sample printed.
const SCRIPT_TAG: &str = "script";

/// The outcome of one sample (or of a script's SCRIPT_TAG).
struct Judged {
    script: String,
    tag: String,
    finding: Option<Finding>,
}

/// Runs one file and judges each of its samples. What goes wrong with the file as a whole is
/// judged as the SCRIPT_TAG of every script whose samples it runs.
fn judge_script(root: &Path, file: &str, samples: &[&Sample]) -> Vec<Judged> {
    let dir = root.join(DIR);
    let expected = dir.join("expected");
    let judged = |script: &str, tag: &str, finding: Option<Finding>| Judged {
        script: script.to_string(),
        tag: tag.to_string(),
        finding,
    };
    let scripts: BTreeSet<&str> = samples.iter().map(|s| s.script.as_str()).collect();
    let for_every_script = |finding: Finding| -> Vec<Judged> {
        scripts
            .iter()
            .map(|script| judged(script, SCRIPT_TAG, Some(finding.clone())))
            .collect()
    };
    let want_stdout = match std::fs::read(expected.join(format!("{file}.stdout"))) {
        Ok(b) => b,
        Err(_) => {
            return for_every_script(Finding {
                verdict: Verdict::Differs,
                kind: "no recording",
                cause: format!("no recording: run {RECORDER}"),
                detail: format!("no recording: run {RECORDER}"),
            });
        }
    };
    let want_code: i32 = std::fs::read_to_string(expected.join(format!("{file}.status")))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let want = samples::parse(&want_stdout);
    let run = run_isolated(&dir.join(format!("{file}.py")), SCRIPT_TIMEOUT);
    if let Some(e) = run.spawn_error {
        panic!("could not start the cudatutor binary: {e}");
    }
    let got = samples::parse(&run.stdout);
    let last = last_line(&run.stderr);
    let ending = Ending {
        last_stderr: &last,
        code: run.code,
        timed_out: run.timed_out,
    };
    let mut out = Vec::new();
    let printed: Vec<String> = samples.iter().map(|s| s.printed_tag()).collect();
    for (s, tag) in samples.iter().zip(&printed) {
        let Some(want_block) = want.by_tag.get(tag) else {
            out.push(judged(
                &s.script,
                &s.tag,
                Some(Finding {
                    verdict: Verdict::Differs,
                    kind: "no recording",
                    cause: "the recording has no output for this sample: re-record".to_string(),
                    detail: format!("re-record: {RECORDER} {file}"),
                }),
            ));
            continue;
        };
        let got_block = got.by_tag.get(tag).map(|v| v.as_slice());
        out.push(judged(
            &s.script,
            &s.tag,
            verdict::judge(want_block, got_block, &ending),
        ));
    }
    // The file as a whole: nothing printed outside the samples, and the same exit status
    // once every sample printed.
    let listed: BTreeSet<&str> = printed.iter().map(|t| t.as_str()).collect();
    let stray_tags: Vec<&String> = got
        .by_tag
        .keys()
        .filter(|t| !listed.contains(t.as_str()))
        .collect();
    let all_printed = printed.iter().all(|t| got.by_tag.contains_key(t));
    let mut problems = Vec::new();
    if got.untagged != want.untagged {
        problems.push(format!(
            "untagged output: {:?}",
            verdict::clip(&got.untagged.join(" | "), 150)
        ));
    }
    if !stray_tags.is_empty() {
        problems.push(format!(
            "output for samples PyTorch did not print: {stray_tags:?}"
        ));
    }
    if all_printed && (run.timed_out || run.code != Some(want_code)) {
        problems.push(format!(
            "exit status {:?} where PyTorch exits {want_code}: {}",
            run.code,
            verdict::clip(&last, 150)
        ));
    }
    if !problems.is_empty() {
        let cause = problems.join("; ");
        out.extend(for_every_script(Finding {
            verdict: Verdict::Differs,
            kind: "wrong output",
            cause: verdict::normalise(&cause),
            detail: cause,
        }));
    }
    out
}

fn run_all(root: &Path, by_file: &BTreeMap<String, Vec<Sample>>) -> Vec<Judged> {
    let queue: Vec<(String, Vec<Sample>)> = by_file
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let queue = Arc::new(Mutex::new(queue));
    let results = Arc::new(Mutex::new(Vec::new()));
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8);
    let mut handles = Vec::new();
    for _ in 0..workers {
        let queue = Arc::clone(&queue);
        let results = Arc::clone(&results);
        let root = root.to_path_buf();
        handles.push(std::thread::spawn(move || {
            loop {
                let Some((file, samples)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let refs: Vec<&Sample> = samples.iter().collect();
                let judged = judge_script(&root, &file, &refs);
                results.lock().unwrap().extend(judged);
            }
        }));
    }
    for h in handles {
        h.join().expect("a conformance worker panicked");
    }
    let mut results = Arc::try_unwrap(results)
        .ok()
        .expect("workers finished")
        .into_inner()
        .unwrap();
    results.sort_by(|a, b| (&a.script, tag_order(&a.tag)).cmp(&(&b.script, tag_order(&b.tag))));
    results
}

/// Tags sort by letter, then number (s2 before s10).
fn tag_order(tag: &str) -> (String, u64) {
    let letters: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let n = tag[letters.len()..].parse().unwrap_or(u64::MAX);
    (letters, n)
}

fn tsv(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

fn write_results(path: &Path, results: &[Judged]) {
    let mut text = String::from("# script\ttag\tverdict\tkind\tcause\tdetail\n");
    for r in results {
        let (verdict, kind, cause, detail) = match &r.finding {
            None => ("identical", "", String::new(), String::new()),
            Some(f) => (f.verdict.word(), f.kind, tsv(&f.cause), tsv(&f.detail)),
        };
        text.push_str(&format!(
            "{}\t{}\t{verdict}\t{kind}\t{cause}\t{detail}\n",
            r.script, r.tag
        ));
    }
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
    }
}

/// Ops whose float32 results PyTorch computes with MKL's closed VML functions on the CPU
/// (ATen's vml.h; see src/engine/numerics/mkl.rs): their last-bit differences are listed as
/// such. Any other op's last-bit difference is listed as a difference.
const MKL_VML_OPS: [&str; 15] = [
    "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "erf", "erfc", "erfinv",
    "acos", "asin", "atan",
];

/// The KNOWN_DIFFERENCES this run needs: one line per script and cause.
fn suggested_known(results: &[Judged], manifest: &BTreeMap<(String, String), Sample>) -> String {
    let mut text = String::from(
        "# Samples of tests/conformance/ that do not match PyTorch 2.15 yet: `SCRIPT TAGS  # reason`.\n\
         # tests/conformance.rs fails when any other sample differs and when a listed one matches\n\
         # (then delete it). Regenerate with scripts/conformance/report.py --update-known after\n\
         # checking that every new difference is a real gap, never a regression.\n",
    );
    let mut by_script: BTreeMap<&str, Vec<&Judged>> = BTreeMap::new();
    for r in results.iter().filter(|r| r.finding.is_some()) {
        by_script.entry(&r.script).or_default().push(r);
    }
    for (script, judged) in by_script {
        let total = manifest.keys().filter(|(s, _)| s == script).count();
        // Group this script's samples by cause, keeping the first sample's specifics.
        let mut groups: Vec<(String, Vec<String>, String)> = Vec::new();
        for r in &judged {
            let f = r.finding.as_ref().unwrap();
            let entry = manifest.get(&(r.script.clone(), r.tag.clone()));
            let mkl = f.kind == "float32 last bits"
                && entry.is_some_and(|s| MKL_VML_OPS.contains(&s.entry.as_str()));
            let reason = if mkl {
                format!("MKL VML float32 last bits: {}", f.cause)
            } else if f.verdict == Verdict::Unsupported {
                format!(
                    "unsupported: {}",
                    f.cause.trim_start_matches("unsupported: ")
                )
            } else {
                format!("differs: {}", f.cause)
            };
            match groups.iter_mut().find(|g| g.0 == reason) {
                Some(g) => g.1.push(r.tag.clone()),
                None => groups.push((reason, vec![r.tag.clone()], f.detail.clone())),
            }
        }
        for (reason, tags, detail) in groups {
            let spec = if tags.len() == total && total > 1 {
                "*".to_string()
            } else {
                known::compress(&tags)
            };
            // An unsupported sample's cause already names what is missing; a difference
            // shows its first sample's differing line or value.
            let detail = if reason.starts_with("unsupported") || reason.contains(&detail) {
                String::new()
            } else {
                format!("; {}: {}", tags[0], verdict::clip(&detail, 200))
            };
            text.push_str(&format!("{script} {spec}  # {reason}{detail}\n"));
        }
    }
    text
}

#[test]
fn every_generated_sample_matches_pytorch_or_is_a_listed_difference() {
    let started = Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join(DIR);
    let manifest =
        samples::read_manifest(&dir.join("MANIFEST.tsv")).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        manifest.len() >= MIN_SAMPLES,
        "MANIFEST.tsv lists {} samples; at least {MIN_SAMPLES} are expected",
        manifest.len()
    );
    let files_on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .map(|p: PathBuf| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| !SHARED_MODULES.contains(&stem.as_str()))
        .collect();
    let mut by_script: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    let mut by_file: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    let mut by_key: BTreeMap<(String, String), Sample> = BTreeMap::new();
    for s in &manifest {
        by_script
            .entry(s.script.clone())
            .or_default()
            .push(s.clone());
        by_file.entry(s.file.clone()).or_default().push(s.clone());
        by_key.insert((s.script.clone(), s.tag.clone()), s.clone());
    }
    let listed: BTreeSet<String> = by_file.keys().cloned().collect();
    assert_eq!(
        listed, files_on_disk,
        "MANIFEST.tsv and the scripts in {DIR} disagree: rerun scripts/conformance/generate.py"
    );

    // A file runs when the filter is part of its name or of the name of a script it runs.
    let filter = std::env::var("CONFORMANCE_FILTER").ok();
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    by_file.retain(|file, samples| wanted(file) || samples.iter().any(|s| wanted(&s.script)));
    let running: BTreeSet<&str> = by_file
        .values()
        .flatten()
        .map(|s| s.script.as_str())
        .collect();
    by_script.retain(|script, _| running.contains(script.as_str()));
    let results = run_all(root, &by_file);
    let elapsed = started.elapsed();

    if let Some(path) = std::env::var_os("CONFORMANCE_RESULTS") {
        write_results(Path::new(&path), &results);
    }
    if let Some(path) = std::env::var_os("CONFORMANCE_KNOWN_OUT")
        && let Err(e) = std::fs::write(&path, suggested_known(&results, &by_key))
    {
        eprintln!("cannot write CONFORMANCE_KNOWN_OUT: {e}");
    }

    let known = known::read(&dir.join("KNOWN_DIFFERENCES")).unwrap_or_else(|e| panic!("{e}"));
    let mut errors = Vec::new();
    // Every listed sample exists.
    let mut listed_samples: BTreeMap<(String, String), &known::Entry> = BTreeMap::new();
    for (script, entries) in &known {
        let Some(samples) = by_script.get(script) else {
            if filter.is_none() && !by_key.keys().any(|(s, _)| s == script) {
                errors.push(format!(
                    "KNOWN_DIFFERENCES lists `{script}`, which is not a script"
                ));
            }
            continue;
        };
        for e in entries {
            let tags: Vec<String> = match &e.tags {
                known::Tags::All => samples.iter().map(|s| s.tag.clone()).collect(),
                known::Tags::Some(t) => t.clone(),
            };
            for t in tags {
                if t != SCRIPT_TAG && !by_key.contains_key(&(script.clone(), t.clone())) {
                    errors.push(format!(
                        "KNOWN_DIFFERENCES line {}: {script} has no sample {t}",
                        e.line
                    ));
                }
                listed_samples.insert((script.clone(), t), e);
            }
        }
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut new_differences = Vec::new();
    let mut now_matching = Vec::new();
    let mut differing: BTreeSet<(String, String)> = BTreeSet::new();
    for r in &results {
        let verdict = r.finding.as_ref().map_or(Verdict::Identical, |f| f.verdict);
        if r.tag != SCRIPT_TAG {
            *counts.entry(verdict.word()).or_default() += 1;
        }
        let key = (r.script.clone(), r.tag.clone());
        match (&r.finding, listed_samples.get(&key)) {
            (Some(f), None) => {
                let what = by_key.get(&key).map_or(String::new(), |s| {
                    format!(" ({} {} {})", s.target, s.kind, s.dtype)
                });
                new_differences.push(format!(
                    "{} {}{what} [{}] {}\n      {}",
                    r.script,
                    r.tag,
                    f.verdict.word(),
                    f.cause,
                    f.detail
                ))
            }
            (None, Some(e)) => now_matching.push(format!(
                "{} {} (KNOWN_DIFFERENCES line {}: {})",
                r.script,
                r.tag,
                e.line,
                verdict::clip(&e.reason, 80)
            )),
            _ => {}
        }
        if r.finding.is_some() {
            differing.insert(key);
        }
    }
    // A listed script-level problem that no longer occurs also matches now.
    for ((script, tag), e) in &listed_samples {
        if tag == SCRIPT_TAG
            && by_script.contains_key(script)
            && !differing.contains(&(script.clone(), tag.clone()))
        {
            now_matching.push(format!(
                "{script} {tag} (KNOWN_DIFFERENCES line {})",
                e.line
            ));
        }
    }
    let total: usize = counts.values().sum();
    let identical = counts.get("identical").copied().unwrap_or(0);
    eprintln!(
        "conformance: {} scripts, {total} samples: {identical} identical ({:.1}%), {} differ, \
         {} unsupported; {:.1}s",
        by_script.len(),
        100.0 * identical as f64 / total.max(1) as f64,
        counts.get("differs").copied().unwrap_or(0),
        counts.get("unsupported").copied().unwrap_or(0),
        elapsed.as_secs_f64()
    );
    if !new_differences.is_empty() {
        errors.push(format!(
            "{} samples differ from PyTorch and are not in tests/conformance/KNOWN_DIFFERENCES \
             (a regression, or a new sample: fix it, or list it with its reason):\n  {}",
            new_differences.len(),
            new_differences.join("\n  ")
        ));
    }
    if !now_matching.is_empty() {
        errors.push(format!(
            "{} listed samples now match PyTorch: delete them from \
             tests/conformance/KNOWN_DIFFERENCES (scripts/conformance/report.py --update-known):\n  {}",
            now_matching.len(),
            now_matching.join("\n  ")
        ));
    }
    if !errors.is_empty() {
        panic!("{}", errors.join("\n\n"));
    }
}

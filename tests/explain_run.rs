//! `cudatutor run --explain` on ten learner-style training scripts, each with one planted bug
//! (tests/explain/planted/): the explanation must name the line whose op failed (`# origin`),
//! the offending element and its value against the bound, and the line where that value
//! entered (`# entered`: the tensor's creation or last write). Run through the real binary
//! on the simulated GPU, from the scripts' folder, with `--allow-read data`.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::Command;

fn planted() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain/planted")
}

/// Text without its whitespace: the explanation is wrapped to the terminal's width, and a
/// sentence may break anywhere (Chinese has no spaces to break at).
fn flat(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The 1-based line holding `# marker`.
fn marked(source: &str, marker: &str) -> u32 {
    source
        .lines()
        .position(|l| l.trim_end().ends_with(&format!("# {marker}")))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("no `# {marker}` line"))
}

fn run_explain(script: &str, lang: &str) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .current_dir(planted())
        .env(
            "CUDATUTOR_DATA_DIR",
            std::env::temp_dir().join("cudatutor-explain-run-test"),
        )
        .args([
            "--lang",
            lang,
            "--backend",
            "sim",
            "run",
            "--explain",
            "--allow-read",
            "data",
            script,
        ])
        .output()
        .expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// (script, what the explanation must say about the value or the devices)
const CASES: &[(&str, &[&str])] = &[
    (
        "label_mapping.py",
        &[
            "cross_entropy on line {origin}",
            "labels[3] = 5, but the logits have 5 classes (valid 0..4)",
        ],
    ),
    (
        "vocab_off_by_one.py",
        &[
            "embedding on line {origin}",
            "ids[1, 0] = 5, but the embedding table has 5 rows (valid 0..4)",
        ],
    ),
    (
        "buffer_wrong_device.py",
        &["Line {origin}", "other is on cpu since line {entered}"],
    ),
    (
        "cpu_tensor_in_forward.py",
        &["Line {origin}", "other is on cpu since line {entered}"],
    ),
    (
        "negative_label.py",
        &[
            "cross_entropy on line {origin}",
            "labels[2] = -1, but the logits have 3 classes (valid 0..2)",
        ],
    ),
    (
        "gather_targets.py",
        &[
            "gather on line {origin}",
            "(targets.unsqueeze(1))[2, 0] = 4, out of range for size 4 of dimension 1 (valid 0..3)",
        ],
    ),
    (
        "index_select_rows.py",
        &[
            "index_select on line {origin}",
            "rows[4] = 5, out of range for size 5 of dimension 0 (valid 0..4)",
        ],
    ),
    (
        "bce_raw_scores.py",
        &[
            "binary_cross_entropy on line {origin}",
            "but binary_cross_entropy takes probabilities in [0, 1]",
            "scores[",
        ],
    ),
    (
        "index_tensor_oob.py",
        &[
            "index on line {origin}",
            "idx[3] = 10, out of range for size 10 of dimension 0 (valid 0..9, or -10..-1)",
        ],
    ),
    (
        "labels_from_file.py",
        &[
            "cross_entropy on line {origin}",
            "labels[2] = 10, but the logits have 10 classes (valid 0..9)",
        ],
    ),
];

#[test]
fn ten_planted_bugs_get_their_origin_line_and_value() {
    assert_eq!(CASES.len(), 10);
    let mut failures = Vec::new();
    for (script, wants) in CASES {
        let source = std::fs::read_to_string(planted().join(script)).unwrap();
        let origin = marked(&source, "origin");
        let entered = marked(&source, "entered");
        let (_, stderr, code) = run_explain(script, "en");
        if code != 1 {
            failures.push(format!("{script}: exit {code}\n{stderr}"));
            continue;
        }
        let mut wants: Vec<String> = wants
            .iter()
            .map(|w| {
                w.replace("{origin}", &origin.to_string())
                    .replace("{entered}", &entered.to_string())
            })
            .collect();
        if !script.contains("device") && !script.contains("forward") {
            wants.push(format!("That value entered on line {entered}"));
        }
        for want in &wants {
            if !flat(&stderr).contains(&flat(want)) {
                failures.push(format!("{script}: missing `{want}` in\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_deferred_assert_names_the_launch_line_not_the_reported_one() {
    let source = std::fs::read_to_string(planted().join("label_mapping.py")).unwrap();
    let origin = marked(&source, "origin");
    let (_, stderr, _) = run_explain("label_mapping.py", "en");
    assert!(
        flat(&stderr).contains(&flat(&format!("the kernel failed on line {origin}"))),
        "{stderr}"
    );
    // the catalogue's explanation follows, with its lesson
    assert!(stderr.contains("[assert-nll-target]"), "{stderr}");
    assert!(
        stderr.contains("--section \"Labels out of range\""),
        "{stderr}"
    );
}

#[test]
fn the_explanation_speaks_chinese_too() {
    let (_, stderr, _) = run_explain("vocab_off_by_one.py", "zh");
    assert!(
        flat(&stderr).contains(&flat("但 embedding 表只有 5 行（有效范围 0..4）")),
        "{stderr}"
    );
    assert!(stderr.contains("这个值是在第"), "{stderr}");
    assert!(stderr.contains("这是什么"), "{stderr}");
}

#[test]
fn explain_reads_a_paste_on_stdin_and_never_fails() {
    for input in [
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 7.79 GiB of which 1.10 GiB is free.",
        "",
        "\u{0}\u{1}garbage \u{1b}[31m",
    ] {
        let out = cli::output_with_stdin(
            Command::new(cli::BIN).args(["--lang", "en", "explain", "-"]),
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{input:?}");
        assert!(!out.stdout.is_empty(), "{input:?}");
    }
}

#[test]
fn allow_read_shows_only_the_folder_read_only() {
    let dir = std::env::temp_dir().join(format!("cudatutor-allow-read-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/a.csv"), "x,y\n1,2\n").unwrap();
    std::fs::write(dir.join("secret.txt"), "no").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("data/escape.txt")).unwrap();
    let script = [
        "import os",
        "print(sorted(os.listdir('data')))",
        "print(open('data/a.csv').read().splitlines())",
        "for p in ['data/escape.txt', 'secret.txt', 'data/missing.csv']:",
        "    try:",
        "        open(p).read()",
        "    except OSError as e:",
        "        print(type(e).__name__, e)",
        "try:",
        "    open('data/new.txt', 'w')",
        "except OSError as e:",
        "    print(type(e).__name__, e)",
        "",
    ]
    .join("\n");
    std::fs::write(dir.join("s.py"), script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .current_dir(&dir)
        .args(["--backend", "sim", "run", "--allow-read", "data", "s.py"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        !lines.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        lines,
        [
            "['a.csv', 'escape.txt']",
            "['x,y', '1,2']",
            "PermissionError [Errno 13] Permission denied: 'data/escape.txt'",
            "FileNotFoundError [Errno 2] No such file or directory: 'secret.txt'",
            "FileNotFoundError [Errno 2] No such file or directory: 'data/missing.csv'",
            "OSError [Errno 30] Read-only file system: 'data/new.txt'",
        ],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// tests/explain/planted/read_data.py reads csv, text, .npy (C and Fortran order), .npz and
/// two torch.save checkpoints from `data/`; read_data.expected is what real PyTorch 2.15 printed
/// for it on a CPU machine (`OMP_NUM_THREADS=1 .venv-torch/bin/python read_data.py` in that
/// folder, which also wrote the data files). cudatutor must print the same under --allow-read.
#[test]
fn allow_read_loads_csv_npy_npz_and_checkpoints_as_pytorch_does() {
    let out = Command::new(env!("CARGO_BIN_EXE_cudatutor"))
        .current_dir(planted())
        .args([
            "--backend",
            "sim",
            "run",
            "--allow-read",
            "data",
            "read_data.py",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let expected = std::fs::read_to_string(planted().join("read_data.expected")).unwrap();
    assert_eq!(
        stdout,
        expected,
        "stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

//! `cudatutor explain` against a corpus of real error texts (tests/explain/corpus/): each one
//! must map to its family, and that family's lesson link must resolve in the real lessons, in
//! English and in Chinese. The corpus is real PyTorch output recorded on a CPU machine
//! (record_cpu.py), the recorded GPU runs of tests/fixtures/cuda (import_gpu_fixtures.py), and
//! texts in PyTorch's exact message formats (their headers name the source of each format).

use cudatutor::explain::{self, Options, Verdict};
use cudatutor::lesson::{Catalog, Lang};
use std::path::Path;

struct Case {
    name: String,
    family: String,
    text: String,
}

fn corpus() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain/corpus");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/explain/corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|path| {
            let raw = std::fs::read_to_string(&path).unwrap();
            let (head, text) = raw
                .split_once("\n---\n")
                .unwrap_or_else(|| panic!("{}: no --- line", path.display()));
            let family = head
                .lines()
                .find_map(|l| l.strip_prefix("# family: "))
                .unwrap_or_else(|| panic!("{}: no family line", path.display()))
                .trim()
                .to_string();
            assert!(
                head.lines().any(|l| l.starts_with("# source: ")),
                "{}: every corpus text says where it comes from",
                path.display()
            );
            Case {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                family,
                text: text.to_string(),
            }
        })
        .collect()
}

#[test]
fn the_corpus_holds_at_least_sixty_texts_across_the_families() {
    let cases = corpus();
    assert!(cases.len() >= 60, "{} texts", cases.len());
    let families: std::collections::BTreeSet<&str> =
        cases.iter().map(|c| c.family.as_str()).collect();
    assert!(families.len() >= 25, "{families:?}");
}

#[test]
fn every_corpus_text_maps_to_its_family_and_lesson() {
    let en = Catalog::builtin(Lang::En).unwrap();
    let zh = Catalog::builtin(Lang::Zh).unwrap();
    let mut wrong = Vec::new();
    for case in corpus() {
        for (lang, lessons) in [(Lang::En, &en), (Lang::Zh, &zh)] {
            let e = explain::explain(
                &case.text,
                &Options {
                    lang,
                    lessons: Some(lessons),
                    read_script: None,
                },
            );
            let got = match &e.verdict {
                Some(Verdict::Known { family, .. }) => family.id.clone(),
                Some(Verdict::Unknown { closest, .. }) => {
                    format!("unknown (closest {})", closest.id)
                }
                None => "nothing".into(),
            };
            if got != case.family {
                wrong.push(format!(
                    "{}: expected {}, got {got}",
                    case.name, case.family
                ));
                break;
            }
            let family = e.family().unwrap();
            match &e.link {
                Some(link) => assert_eq!(link.lesson_id, family.lesson.id, "{}", case.name),
                None => wrong.push(format!("{}: no lesson link in {lang:?}", case.name)),
            }
            let text = e.render(lang, 100);
            assert!(text.contains(&family.words(lang).title), "{}", case.name);
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_deferred_error_reported_elsewhere_is_distrusted_and_a_blocking_one_trusted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain/corpus");
    let read = |n: &str| {
        let raw = std::fs::read_to_string(dir.join(n)).unwrap();
        raw.split_once("\n---\n").unwrap().1.to_string()
    };
    let opts = Options {
        lang: Lang::En,
        lessons: None,
        read_script: None,
    };
    // recorded on an H200: reported at `doubled = loss * 2`, the kernel failed in cross_entropy
    let e = explain::explain(&read("gpu-assert-deferred.txt"), &opts);
    assert_eq!(e.origin.trust, explain::origin::Trust::OnlyNoticed);
    let text = e.render(Lang::En, 100);
    assert!(text.contains("Distrust that line"), "{text}");
    assert!(
        text.contains("nll_loss_forward_reduce_cuda_kernel_2d"),
        "{text}"
    );
    assert!(text.contains("sample 5 of the batch"), "{text}");
    // the same script under CUDA_LAUNCH_BLOCKING=1 ends at the cross_entropy call itself
    let e = explain::explain(&read("gpu-assert-deferred-blocking.txt"), &opts);
    assert!(
        matches!(
            e.origin.trust,
            explain::origin::Trust::LaunchesIt | explain::origin::Trust::Blocking
        ),
        "{:?}",
        e.origin.trust
    );
    // a host-side error: the last own line is the origin, the frames below are PyTorch's
    let e = explain::explain(&read("cpu-shape-linear.txt"), &opts);
    assert_eq!(e.origin.trust, explain::origin::Trust::HostCheck);
    let text = e.render(Lang::En, 100);
    assert!(text.contains("PyTorch's own code"), "{text}");
    assert!(text.contains("in_features=784"), "{text}");
}

#[test]
fn the_three_oom_diagnoses_come_from_the_messages_numbers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain/corpus");
    let render = |n: &str| {
        let raw = std::fs::read_to_string(dir.join(n)).unwrap();
        let text = raw.split_once("\n---\n").unwrap().1.to_string();
        explain::explain(
            &text,
            &Options {
                lang: Lang::En,
                lessons: None,
                read_script: None,
            },
        )
        .render(Lang::En, 200)
    };
    let live = render("src-oom-live-tensors.txt");
    assert!(live.contains("Live tensors: 22.61 GiB"), "{live}");
    assert!(!live.contains("Fragmentation"), "{live}");
    assert!(!live.contains("Another process"), "{live}");
    let frag = render("src-oom-fragmented.txt");
    assert!(
        frag.contains("Fragmentation: PyTorch's cache holds 15.64 GiB"),
        "{frag}"
    );
    let other = render("src-oom-other-process.txt");
    assert!(other.contains("Another process: 71.40 GiB"), "{other}");
    assert!(!other.contains("Live tensors"), "{other}");
    let old = render("src-oom-1x.txt");
    assert!(old.contains("Fragmentation"), "{old}");
    // recorded on an H200: 279.60 GiB asked of a 139.80 GiB card
    let huge = render("gpu-oom.txt");
    assert!(huge.contains("larger than the whole card"), "{huge}");
    let capped = render("gpu-oom-fraction.txt");
    assert!(
        capped.contains("A per-process cap is set: 1.40 GiB allowed"),
        "{capped}"
    );
}

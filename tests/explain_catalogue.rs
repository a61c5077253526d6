//! The error catalogue itself: every family file parses, is listed, has both languages, and
//! links to a lesson section and exercise that exist — checked against the real lessons, so a
//! renamed section breaks this test, not a learner's link. And `explain` of any input, however
//! strange, returns an explanation (property test).

use cudatutor::explain::catalogue::{FAMILY_FILES, parse_family};
use cudatutor::explain::{self, Catalogue, Options, links};
use cudatutor::lesson::{Catalog, Lang};
use proptest::prelude::*;

#[test]
fn every_family_file_in_the_folder_is_listed_and_parses() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/explain/families");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FAMILY_FILES.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "catalogue.rs must list every family file");
    for (name, text) in FAMILY_FILES {
        if let Err(e) = parse_family(name, text) {
            panic!("{e}");
        }
    }
    assert_eq!(Catalogue::builtin().families.len(), FAMILY_FILES.len());
    let mut orders: Vec<u32> = Catalogue::builtin()
        .families
        .iter()
        .map(|c| c.family.order)
        .collect();
    orders.sort();
    orders.dedup();
    assert_eq!(orders.len(), FAMILY_FILES.len(), "orders are unique");
}

#[test]
fn every_family_links_to_a_real_section_and_exercise_in_both_languages() {
    let mut problems = Vec::new();
    for lang in [Lang::En, Lang::Zh] {
        let catalog = Catalog::builtin(lang).unwrap();
        for c in &Catalogue::builtin().families {
            let f = &c.family;
            let Some(index) = catalog.position_of_id(&f.lesson.id) else {
                problems.push(format!("{}: no lesson `{}`", f.id, f.lesson.id));
                continue;
            };
            let lesson = &catalog.lessons[index];
            let wanted = match lang {
                Lang::En => &f.lesson.section_en,
                Lang::Zh => &f.lesson.section_zh,
            };
            if links::find_section(&lesson.body, wanted).is_none() {
                problems.push(format!(
                    "{}: lesson {} ({lang:?}) has no section \"{wanted}\"; its sections: {:?}",
                    f.id,
                    f.lesson.id,
                    links::sections(&lesson.body)
                ));
            }
            if let Some(x) = &f.lesson.exercise
                && !lesson.exercises.iter().any(|e| &e.id == x)
            {
                problems.push(format!(
                    "{}: lesson {} has no exercise {x}",
                    f.id, f.lesson.id
                ));
            }
            if links::resolve(&f.lesson, &catalog).is_none() {
                problems.push(format!("{}: the link does not resolve ({lang:?})", f.id));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_lessons_own_error_messages_are_each_explained() {
    // every error message quoted in the lessons' text must belong to a family: the lessons
    // teach them, so explain must know them
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let quoted =
        regex::Regex::new(r"(?:torch\.)?(?:[A-Z][a-z]+)*(?:Error|AcceleratorError): [^\n]{8,}")
            .unwrap();
    let mut unknown = Vec::new();
    for lesson in &catalog.lessons {
        for m in quoted.find_iter(&lesson.body) {
            let text = m.as_str();
            // placeholders in tables ("CUDA error: ..."), not messages
            if text.contains("...") || text.contains("…") || text.contains("read its message") {
                continue;
            }
            let e = explain::explain(
                text,
                &Options {
                    lang: Lang::En,
                    lessons: None,
                    read_script: None,
                },
            );
            if e.family().is_none() {
                unknown.push(format!("{}: {text}", lesson.id));
            }
        }
    }
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
}

#[test]
fn unknown_text_says_so_and_names_the_closest_family() {
    let opts = Options {
        lang: Lang::En,
        lessons: None,
        read_script: None,
    };
    let e = explain::explain(
        "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    d['k']\nKeyError: 'k'\n",
        &opts,
    );
    assert!(e.family().is_none());
    assert!(e.family_or_closest().is_some());
    let text = e.render(Lang::En, 80);
    assert!(text.contains("Not in cudatutor's catalogue"), "{text}");
    assert!(text.contains("The closest is"), "{text}");
    // words of a family, without its signature: that family is the closest
    let e = explain::explain("my labels and classes seem off in cross_entropy", &opts);
    assert_eq!(e.family_or_closest().unwrap().id, "assert-nll-target");
    let e = explain::explain("   \n\t\n", &opts);
    assert!(e.verdict.is_none());
    assert!(e.render(Lang::Zh, 80).contains("没有可解释的内容"));
}

fn corpus_texts() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain/corpus");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        if let Ok(t) = std::fs::read_to_string(e.path()) {
            out.push(t);
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn explain_never_fails_on_any_text(s in any::<String>(), width in 0usize..200) {
        for lang in [Lang::En, Lang::Zh] {
            let e = explain::explain(&s, &Options { lang, lessons: None, read_script: None });
            let _ = e.render(lang, width);
        }
    }

    #[test]
    fn explain_never_fails_on_mangled_real_errors(
        pick in 0usize..1000,
        cut in 0usize..4000,
        noise in "[\\PC\\n\\r\\t\\x1b\\[\\]`:(), 0-9]{0,80}",
    ) {
        let texts = corpus_texts();
        let text = &texts[pick % texts.len()];
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mangled = format!("{}{noise}{}", &text[..at], &text[at..]);
        let catalog = Catalog::builtin(Lang::En).unwrap();
        let e = explain::explain(&mangled, &Options { lang: Lang::En, lessons: Some(&catalog), read_script: None });
        let _ = e.render(Lang::En, 60);
    }
}

//! `cudatutor explain`: a pasted traceback or log, explained — what the error is, what it is
//! not, where its origin probably is (which traceback lines to distrust and why), the checks
//! to run, and the lesson section and exercise that teach it — in English or Chinese.
//!
//! The error families are data (`families/*.toml`, see catalogue.rs); this module reads the
//! paste (input.rs), picks the family (matcher.rs), works out the origin (origin.rs) and the
//! paste's own numbers (diagnose.rs), links the lesson (links.rs) and renders it all
//! (render.rs). `run --explain` adds what the engine saw: the offending element and where its
//! values came from (culprit.rs). Nothing here fails or panics, whatever the input.

pub mod catalogue;
pub(crate) mod culprit;
mod diagnose;
pub(crate) mod input;
pub mod links;
mod matcher;
pub mod origin;
pub(crate) mod render;

pub use catalogue::{Catalogue, Family};
pub(crate) use diagnose::size as format_size;
pub use links::LessonLink;
pub use matcher::Verdict;

use crate::lesson::{Catalog, Lang};

/// A paste, explained (in one language).
pub struct Explanation {
    pub parsed: input::Parsed,
    /// None: nothing in the paste to explain (empty, blank).
    pub verdict: Option<Verdict<'static>>,
    pub origin: origin::Origin,
    /// Sentences computed from the paste's numbers (diagnose.rs).
    pub findings: Vec<String>,
    /// The lesson section that teaches the family (or the closest one).
    pub link: Option<LessonLink>,
}

impl Explanation {
    /// The family that matched (None for unknown text).
    pub fn family(&self) -> Option<&'static Family> {
        match &self.verdict {
            Some(Verdict::Known { family, .. }) => Some(family),
            _ => None,
        }
    }
    /// The family that matched, or the closest one for unknown text.
    pub fn family_or_closest(&self) -> Option<&'static Family> {
        match &self.verdict {
            Some(Verdict::Known { family, .. }) => Some(family),
            Some(Verdict::Unknown { closest, .. }) => Some(closest),
            None => None,
        }
    }
    pub fn render(&self, lang: Lang, width: usize) -> String {
        render::render(self, lang, width)
    }
}

/// How to explain.
pub struct Options<'a> {
    pub lang: Lang,
    /// The lessons to link to (None: no link).
    pub lessons: Option<&'a Catalog>,
    /// Reads a script named in the traceback (to find a deferred error's launching line);
    /// None reads nothing.
    pub read_script: Option<ScriptReader<'a>>,
}

/// Reads a script's text by the name a traceback gives it.
pub(crate) type ScriptReader<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Explains a paste.
pub fn explain(text: &str, opts: &Options) -> Explanation {
    let parsed = input::parse(text);
    let catalogue = Catalogue::builtin();
    let verdict = if parsed.text.trim().is_empty() {
        None
    } else {
        matcher::classify(&parsed, catalogue)
    };
    let known = match &verdict {
        Some(Verdict::Known { family, .. }) => Some(*family),
        _ => None,
    };
    let none = |_: &str| None;
    let read: &dyn Fn(&str) -> Option<String> = opts.read_script.unwrap_or(&none);
    let origin = origin::analyse(&parsed, known, read);
    let findings = known
        .and_then(|f| f.diagnosis.as_deref())
        .map(|d| diagnose::diagnose(d, &parsed, opts.lang))
        .unwrap_or_default();
    let linked = match &verdict {
        Some(Verdict::Known { family, .. }) => Some(*family),
        Some(Verdict::Unknown { closest, .. }) => Some(*closest),
        None => None,
    };
    let link = match (linked, opts.lessons) {
        (Some(f), Some(catalog)) => links::resolve(&f.lesson, catalog),
        _ => None,
    };
    Explanation {
        parsed,
        verdict,
        origin,
        findings,
        link,
    }
}

//! From a family to the lesson section that teaches it: resolved against the catalogue of
//! lessons actually loaded, so a renamed section is found missing by the tests
//! (tests/explain_catalogue.rs), not by a learner following a dead link.

use super::catalogue::LessonRef;
use crate::lesson::{Catalog, Lang};

/// A resolved link into the lessons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonLink {
    /// Index in the catalogue (0-based).
    pub lesson_index: usize,
    pub lesson_id: String,
    pub lesson_title: String,
    /// The section's heading as the lesson writes it.
    pub section: String,
    pub exercise: Option<String>,
}

impl LessonLink {
    /// The command that opens it: `cudatutor lesson 3 --section "Labels out of range"`.
    pub fn command(&self, lang: Lang) -> String {
        let lang_flag = match lang {
            Lang::Zh if Lang::from_env() != Lang::Zh => "--lang zh ",
            _ => "",
        };
        format!(
            "cudatutor {lang_flag}lesson {} --section \"{}\"",
            self.lesson_index + 1,
            self.section.replace('"', "\\\"")
        )
    }
}

/// The link of `r` in `catalog`, in the catalogue's language; None when the lesson, the
/// section or the exercise is not there (an instructor's own lessons).
pub fn resolve(r: &LessonRef, catalog: &Catalog) -> Option<LessonLink> {
    let index = catalog.position_of_id(&r.id)?;
    let lesson = &catalog.lessons[index];
    let wanted = if lesson.lang == "zh" {
        &r.section_zh
    } else {
        &r.section_en
    };
    let section = find_section(&lesson.body, wanted)?;
    let exercise = match &r.exercise {
        Some(id) => Some(lesson.exercises.iter().find(|e| &e.id == id)?.id.clone()),
        None => None,
    };
    Some(LessonLink {
        lesson_index: index,
        lesson_id: lesson.id.clone(),
        lesson_title: lesson.title.clone(),
        section,
        exercise,
    })
}

/// The level-2 headings of a lesson body (`## ...` outside code fences), as written.
pub fn sections(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for line in body.lines() {
        let trimmed = line.trim_start();
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                fence = match fence {
                    None => Some(marker),
                    Some(m) if m == marker => None,
                    other => other,
                };
            }
        }
        if fence.is_none()
            && let Some(title) = line.strip_prefix("## ")
        {
            out.push(title.trim().to_string());
        }
    }
    out
}

/// A heading compared loosely: inline code marks and case do not count.
pub(crate) fn normalize(title: &str) -> String {
    title
        .replace('`', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `labels-out-of-range` for "Labels out of range".
pub(crate) fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in normalize(title).chars() {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

/// The heading of `body` that `wanted` names: its title (loosely) or its slug.
pub fn find_section(body: &str, wanted: &str) -> Option<String> {
    let (n, s) = (normalize(wanted), slug(wanted));
    sections(body)
        .into_iter()
        .find(|t| normalize(t) == n || slug(t) == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_in_code_blocks_are_not_sections() {
        let body = "## One\n\n```python\n## not a heading\n```\n\n## `.numpy()` on a GPU\n";
        assert_eq!(sections(body), vec!["One", "`.numpy()` on a GPU"]);
        assert_eq!(
            find_section(body, ".numpy() on a gpu").as_deref(),
            Some("`.numpy()` on a GPU")
        );
        assert_eq!(
            find_section(body, "numpy-on-a-gpu").as_deref(),
            Some("`.numpy()` on a GPU")
        );
        assert_eq!(find_section(body, "two"), None);
        assert_eq!(slug("Labels out of range"), "labels-out-of-range");
        assert_eq!(slug("cuda is not cuda:0"), "cuda-is-not-cuda-0");
    }
}

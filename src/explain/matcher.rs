//! Which family a paste belongs to: every family's signatures run over the cleaned text; the
//! strongest signature that matches is the family's score, its context patterns add to it, and
//! the highest score wins (ties: the lower `order`). Text no signature matches gets the family
//! whose words it shares most, named as the closest, never as the answer.

use super::catalogue::{Catalogue, Compiled, Family};
use super::input::Parsed;

/// The verdict on a paste.
pub enum Verdict<'a> {
    Known {
        family: &'a Family,
        score: u32,
    },
    /// No signature matched: the family whose words the text shares most.
    Unknown {
        closest: &'a Family,
        /// The words it shares with the text (empty when it shares none).
        shared: Vec<String>,
    },
}

pub(super) fn classify<'a>(parsed: &Parsed, catalogue: &'a Catalogue) -> Option<Verdict<'a>> {
    let text = parsed.text.as_str();
    let mut best: Option<(&Compiled, u32)> = None;
    for c in &catalogue.families {
        let Some(strongest) = c
            .signature
            .iter()
            .filter(|(r, _)| r.is_match(text))
            .map(|(_, w)| *w)
            .max()
        else {
            continue;
        };
        let extra: u32 = c
            .context
            .iter()
            .filter(|(r, _)| r.is_match(text))
            .map(|(_, w)| *w)
            .sum();
        let score = strongest + extra;
        let better = match best {
            None => true,
            Some((b, s)) => score > s || (score == s && c.family.order < b.family.order),
        };
        if better {
            best = Some((c, score));
        }
    }
    if let Some((c, score)) = best {
        return Some(Verdict::Known {
            family: &c.family,
            score,
        });
    }
    closest(parsed, catalogue).map(|(closest, shared)| Verdict::Unknown { closest, shared })
}

/// The family sharing the most keywords with the text (ties: the lower order); with none
/// shared, the one whose title shares most three-letter pieces with the text's last line.
fn closest<'a>(parsed: &Parsed, catalogue: &'a Catalogue) -> Option<(&'a Family, Vec<String>)> {
    let lower = parsed.text.to_lowercase();
    let mut best: Option<(&Family, Vec<String>)> = None;
    for c in &catalogue.families {
        let shared: Vec<String> = c
            .family
            .keywords
            .iter()
            .filter(|k| !k.is_empty() && lower.contains(&k.to_lowercase()))
            .cloned()
            .collect();
        let better = match &best {
            None => true,
            Some((b, s)) => {
                shared.len() > s.len() || (shared.len() == s.len() && c.family.order < b.order)
            }
        };
        if better {
            best = Some((&c.family, shared));
        }
    }
    if best.as_ref().is_some_and(|(_, s)| !s.is_empty()) {
        return best;
    }
    let last = lower
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let pieces = trigrams(last);
    catalogue
        .families
        .iter()
        .map(|c| {
            let t = trigrams(&c.family.en.title.to_lowercase());
            (&c.family, pieces.intersection(&t).count())
        })
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.order.cmp(&a.0.order)))
        .map(|(f, _)| (f, Vec::new()))
}

fn trigrams(s: &str) -> std::collections::BTreeSet<String> {
    let chars: Vec<char> = s.chars().take(400).collect();
    chars
        .windows(3)
        .map(|w| w.iter().collect::<String>())
        .filter(|t| t.chars().all(|c| c.is_alphanumeric()))
        .collect()
}

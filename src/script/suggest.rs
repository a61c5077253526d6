//! CPython 3.11's "Did you mean: 'x'?" for an uncaught NameError or AttributeError
//! (`Python/suggestions.c`): the closest candidate by a Levenshtein distance where a case
//! change costs 1 and any other edit 2, within a third of the characters involved.

const MAX_CANDIDATE_ITEMS: usize = 750;
const MAX_STRING_SIZE: usize = 40;
const MOVE_COST: usize = 2;
const CASE_COST: usize = 1;

fn substitution_cost(a: u8, b: u8) -> usize {
    if (a & 31) != (b & 31) {
        return MOVE_COST;
    }
    if a == b {
        return 0;
    }
    if a.eq_ignore_ascii_case(&b) {
        CASE_COST
    } else {
        MOVE_COST
    }
}

/// The distance between `a` and `b`, or `max_cost + 1` once it must exceed `max_cost`.
fn levenshtein<'a>(mut a: &'a [u8], mut b: &'a [u8], max_cost: usize) -> usize {
    while let (Some(x), Some(y)) = (a.first(), b.first()) {
        if x != y {
            break;
        }
        a = &a[1..];
        b = &b[1..];
    }
    while let (Some(x), Some(y)) = (a.last(), b.last()) {
        if x != y {
            break;
        }
        a = &a[..a.len() - 1];
        b = &b[..b.len() - 1];
    }
    if a.is_empty() || b.is_empty() {
        return (a.len() + b.len()) * MOVE_COST;
    }
    if a.len() > MAX_STRING_SIZE || b.len() > MAX_STRING_SIZE {
        return max_cost + 1;
    }
    if b.len() < a.len() {
        std::mem::swap(&mut a, &mut b);
    }
    if (b.len() - a.len()) * MOVE_COST > max_cost {
        return max_cost + 1;
    }
    let mut buffer: Vec<usize> = (1..=a.len()).map(|i| i * MOVE_COST).collect();
    let mut result = 0;
    for (b_index, &code) in b.iter().enumerate() {
        let mut distance = b_index * MOVE_COST;
        result = distance;
        let mut minimum = usize::MAX;
        for (index, &ac) in a.iter().enumerate() {
            let substitute = distance + substitution_cost(code, ac);
            distance = buffer[index];
            let insert_delete = result.min(distance) + MOVE_COST;
            result = insert_delete.min(substitute);
            buffer[index] = result;
            minimum = minimum.min(result);
        }
        if minimum > max_cost {
            return max_cost + 1;
        }
    }
    result
}

/// The candidate CPython would suggest for `name`, if any (the first of the closest).
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl ExactSizeIterator<Item = &'a str>,
) -> Option<&'a str> {
    if candidates.len() >= MAX_CANDIDATE_ITEMS {
        return None;
    }
    let mut best: Option<(&str, usize)> = None;
    for item in candidates {
        if item == name {
            continue;
        }
        let mut max_distance = (name.len() + item.len() + 3) * MOVE_COST / 6;
        if let Some((_, d)) = best {
            max_distance = max_distance.min(d.saturating_sub(1));
        }
        let d = levenshtein(name.as_bytes(), item.as_bytes(), max_distance);
        if d > max_distance {
            continue;
        }
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((item, d));
        }
    }
    best.map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn picks_what_cpython_picks() {
        assert_eq!(suggest("totl", ["total"].into_iter()), Some("total"));
        assert_eq!(
            suggest("pritn", ["print", "len"].into_iter()),
            Some("print")
        );
        assert_eq!(suggest("Print", ["print"].into_iter()), Some("print"));
        assert_eq!(suggest("x", ["y", "z"].into_iter()), None);
        assert_eq!(suggest("abc", ["abc"].into_iter()), None);
        assert_eq!(
            suggest("lenght", ["length", "len"].into_iter()),
            Some("length")
        );
    }
}

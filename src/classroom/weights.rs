//! Partial credit: what each check of an exercise is worth.
//!
//! Every top-level `assert` of a check block is worth 1 point unless a comment at the end of
//! its last line says otherwise: `assert on_gpu(loss), "keep the loss on the GPU"  # weight: 2`
//! (or `# weight=2`, any positive number). An exercise is worth the sum of its checks' weights,
//! and a graded run earns the weights of the checks that passed. Results about the run as a
//! whole (line 0: "fix the SyntaxError first") are worth nothing on their own, so code that does
//! not parse earns 0.

use crate::run::checks::split_checks;

/// The weight of one assert of a check block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CheckWeight {
    /// 1-based line of the assert in the block (what a check result's `line` says).
    pub line: u32,
    pub weight: f64,
}

/// What a check result on `line` of `block` (an exercise's check block, if any) is worth: its
/// assert's weight, 0 for a line no assert starts on and for results about the run as a whole
/// (line 0).
pub(crate) fn weight_lookup(block: Option<&str>) -> impl Fn(u32) -> f64 {
    let (weights, _) = block.map(check_weights).unwrap_or_default();
    move |line: u32| {
        weights
            .iter()
            .find(|w| w.line == line && line > 0)
            .map_or(0.0, |w| w.weight)
    }
}

/// A `# weight` comment that cannot be read: its line in the block and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WeightProblem {
    pub line: u32,
    pub message: String,
}

/// The weight of every assert in `block`, in order, and every malformed `# weight` comment
/// (whose assert then counts 1). A block that does not parse has no weights.
pub(crate) fn check_weights(block: &str) -> (Vec<CheckWeight>, Vec<WeightProblem>) {
    let Ok(statements) = split_checks(block) else {
        return (Vec::new(), Vec::new());
    };
    let lines: Vec<&str> = block.lines().collect();
    let mut weights = Vec::new();
    let mut problems = Vec::new();
    for s in statements.iter().filter(|s| s.is_assert) {
        let last = s.source.rsplit('\n').next().unwrap_or("");
        let last_line = s.line as usize + s.source.matches('\n').count();
        let rest = lines
            .get(last_line.saturating_sub(1))
            .and_then(|l| l.get(last.len()..))
            .unwrap_or("");
        let weight = match parse_weight_comment(rest) {
            None => 1.0,
            Some(Ok(w)) => w,
            Some(Err(message)) => {
                problems.push(WeightProblem {
                    line: u32::try_from(last_line).unwrap_or(u32::MAX),
                    message,
                });
                1.0
            }
        };
        weights.push(CheckWeight {
            line: s.line,
            weight,
        });
    }
    (weights, problems)
}

/// Reads `# weight: N` / `# weight=N` from the text after an assert on its line. None when
/// there is no weight comment (or another comment).
fn parse_weight_comment(rest: &str) -> Option<Result<f64, String>> {
    let comment = rest.trim().strip_prefix('#')?.trim();
    let value = comment.strip_prefix("weight")?.trim_start();
    let value = value
        .strip_prefix(':')
        .or_else(|| value.strip_prefix('='))
        .unwrap_or(value)
        .trim();
    Some(match value.parse::<f64>() {
        Ok(w) if w.is_finite() && w > 0.0 && w <= 1000.0 => Ok(w),
        _ => Err(format!(
            "`# weight: {value}`: a check's weight must be a number above 0 and at most 1000"
        )),
    })
}

/// What an exercise is worth: the sum of its checks' weights (0 without a check block).
pub(crate) fn max_points(block: Option<&str>) -> f64 {
    block.map_or(0.0, |b| {
        round_points(check_weights(b).0.iter().map(|w| w.weight).sum())
    })
}

/// Points rounded to 4 decimals, so that sums such as 0.1 + 0.2 print as 0.3.
/// Never -0.0: an empty sum of f64 is -0.0 in Rust, and `"score": -0.0` is no score a
/// grader shows.
pub(crate) fn round_points(p: f64) -> f64 {
    (p * 10_000.0).round() / 10_000.0 + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_points_print_as_0_not_minus_0() {
        let none: f64 = std::iter::empty::<f64>().sum();
        assert_eq!(round_points(none).to_string(), "0");
        assert_eq!(round_points(-0.00001).to_string(), "0");
        assert_eq!(round_points(1.5).to_string(), "1.5");
        assert!(round_points(none).is_sign_positive());
        assert_eq!(serde_json::to_string(&round_points(none)).unwrap(), "0.0");
    }

    #[test]
    fn asserts_weigh_one_unless_a_comment_says() {
        let block = "x = 1\nassert a, 'a'\nassert b, 'b'  # weight: 2\nassert (\n    c\n), 'c'  # weight=0.5\nassert d, 'd'  # not a weight\n";
        let (w, problems) = check_weights(block);
        assert!(problems.is_empty(), "{problems:?}");
        let got: Vec<(u32, f64)> = w.iter().map(|w| (w.line, w.weight)).collect();
        assert_eq!(got, vec![(2, 1.0), (3, 2.0), (4, 0.5), (7, 1.0)]);
        assert_eq!(max_points(Some(block)), 4.5);
        assert_eq!(max_points(None), 0.0);
    }

    #[test]
    fn bad_weights_are_problems_and_count_one() {
        for bad in [
            "# weight: 0",
            "# weight=-1",
            "# weight: lots",
            "# weight: inf",
        ] {
            let block = format!("assert a, 'a'  {bad}\n");
            let (w, problems) = check_weights(&block);
            assert_eq!(w[0].weight, 1.0, "{bad}");
            assert_eq!(problems.len(), 1, "{bad}");
            assert_eq!(problems[0].line, 1);
        }
    }

    #[test]
    fn a_block_that_does_not_parse_has_no_weights() {
        assert_eq!(check_weights("assert (\n").0, vec![]);
        assert_eq!(round_points(0.1 + 0.2), 0.3);
    }

    proptest::proptest! {
        #[test]
        fn any_block_is_read_without_panicking(
            block in "(assert [a-z]+, '[^'\n]*'( *# *weight *[:=]? *[-0-9a-z.eE+]*)?\r?\n|[ -~\u{4e00}-\u{4e10}]{0,20}\r?\n){0,6}"
        ) {
            let (weights, problems) = check_weights(&block);
            for w in &weights {
                proptest::prop_assert!(w.weight > 0.0 && w.weight <= 1000.0);
            }
            proptest::prop_assert!(problems.len() <= weights.len());
            proptest::prop_assert!(max_points(Some(&block)).is_finite());
        }
    }
}

//! The verdict on one sample: identical to PyTorch's recording, different, or unsupported (the
//! engine raised an error that says it lacks something: a missing attribute, keyword or mode),
//! with the cause the coverage table groups by and the specifics a reader needs.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Identical,
    Differs,
    Unsupported,
}

impl Verdict {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Verdict::Identical => "identical",
            Verdict::Differs => "differs",
            Verdict::Unsupported => "unsupported",
        }
    }
}

/// Why a sample is not identical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pub verdict: Verdict,
    /// The family of the cause, for the summary: "missing function or class", "missing method",
    /// "missing keyword", "unsupported by the engine", "wrong exception type", "wrong message",
    /// "no exception", "unexpected exception", "wrong value", "float32 last bits", "float64 last
    /// bits", "wrong dtype", "wrong shape", "wrong printing", "wrong repr" (a module's),
    /// "wrong structure" (a tuple where PyTorch returns a named tuple...), "wrong output",
    /// "script stopped".
    pub kind: &'static str,
    /// The cause with the sample's numbers taken out, so equal causes group together.
    pub cause: String,
    /// This sample's specifics: the differing line of each side.
    pub detail: String,
}

/// How the script ended, for samples it never reached.
pub(crate) struct Ending<'a> {
    pub last_stderr: &'a str,
    pub code: Option<i32>,
    pub timed_out: bool,
}

/// The exception type of `TYPE: message`.
fn exception_type(line: &str) -> &str {
    line.split_once(':').map_or(line, |(t, _)| t).trim()
}

/// An error by which the engine says it lacks something, rather than one PyTorch would raise.
pub(crate) fn engine_gap(err: &str) -> bool {
    let t = exception_type(err);
    // `'int' object has no attribute 'clamp'`: a plain Python value reached code that expected
    // a tensor, which is a wrong error (PyTorch would raise its own), not a missing feature.
    let builtin_owner = quoted_after(err, ":").is_some_and(|owner| {
        matches!(
            owner,
            "int" | "float" | "bool" | "str" | "list" | "tuple" | "dict" | "NoneType" | "complex"
        )
    });
    (err.contains("has no attribute") && !builtin_owner)
        || err.contains("unexpected keyword argument")
        || err.contains("not supported")
        || err.contains("not implemented")
        || err.contains("cudatutor")
        || matches!(
            t,
            "NotImplementedError" | "ModuleNotFoundError" | "ImportError" | "NameError"
        )
}

/// Digit runs that stand alone become `N`, so messages about different sizes or values group
/// together; digits inside a name (`conv2d`) stay.
pub(crate) fn normalise(line: &str) -> String {
    crate::common::corpus_report::normalise_numbers(line, true)
}

pub(crate) use crate::common::corpus_report::clip;

/// The text between the first pair of single quotes after `after`.
fn quoted_after<'a>(s: &'a str, after: &str) -> Option<&'a str> {
    let rest = &s[s.find(after)? + after.len()..];
    let start = rest.find('\'')? + 1;
    let len = rest[start..].find('\'')?;
    Some(&rest[start..start + len])
}

/// (kind, cause) for an engine error that names a missing feature.
fn gap_cause(err: &str) -> (&'static str, String) {
    if err.contains("has no attribute") {
        if let (Some(owner), Some(attr)) = (
            quoted_after(err, "module"),
            quoted_after(err, "has no attribute"),
        ) {
            return (
                "missing function or class",
                format!("missing {owner}.{attr}"),
            );
        }
        if let (Some(owner), Some(attr)) = (
            quoted_after(err, ":"),
            quoted_after(err, "has no attribute"),
        ) {
            let owner = if owner == "Tensor" || owner == "Parameter" {
                "Tensor"
            } else {
                owner
            };
            return ("missing method", format!("missing {owner}.{attr}"));
        }
    }
    if let Some(kw) = quoted_after(err, "unexpected keyword argument") {
        let func = err
            .split_once(": ")
            .map_or(err, |(_, m)| m)
            .split(" got ")
            .next()
            .unwrap_or("");
        return ("missing keyword", format!("missing keyword {func} {kw}="));
    }
    (
        "unsupported by the engine",
        format!("unsupported: {}", clip(&normalise(err), 110)),
    )
}

/// The first `raised TYPE: message` line of a block, without the prefix.
fn raised(block: &[String]) -> Option<(usize, &str)> {
    block
        .iter()
        .enumerate()
        .find_map(|(i, l)| l.strip_prefix("raised ").map(|m| (i, m)))
}

/// `PATH tensor DTYPE (SHAPE) VALUES` -> (path, dtype, shape, values).
fn tensor_line(line: &str) -> Option<(&str, &str, &str, &str)> {
    let at = line.find("tensor torch.")?;
    let (path, rest) = line.split_at(at);
    let rest = &rest["tensor ".len()..];
    let (dtype, rest) = rest.split_once(' ')?;
    if !rest.starts_with('(') {
        return None;
    }
    let close = rest.find(')')?;
    Some((path, dtype, &rest[..=close], rest[close + 1..].trim_start()))
}

fn numbers(values: &str) -> Vec<&str> {
    values
        .split(|c: char| c == '[' || c == ']' || c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The largest distance in units in the last place between two lists of floats, when both
/// parse and have the same length and the same non-finite values.
fn max_ulps(want: &str, got: &str, single: bool) -> Option<u64> {
    let w = numbers(want);
    let g = numbers(got);
    if w.len() != g.len() {
        return None;
    }
    let mut max = 0u64;
    for (a, b) in w.iter().zip(&g) {
        let (x, y): (f64, f64) = (a.parse().ok()?, b.parse().ok()?);
        if x.is_nan() || y.is_nan() || x.is_infinite() || y.is_infinite() {
            if x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()) {
                return None;
            }
            continue;
        }
        let d = if single {
            ordered32(x as f32).abs_diff(ordered32(y as f32))
        } else {
            ordered64(x).abs_diff(ordered64(y))
        };
        max = max.max(d);
    }
    Some(max)
}

/// Float bits mapped to integers in the order of the floats, so their difference counts ulps.
fn ordered32(x: f32) -> u64 {
    let b = x.to_bits() as i64;
    (if b < 0x8000_0000 {
        b + 0x8000_0000
    } else {
        0xFFFF_FFFF - b
    }) as u64
}

fn ordered64(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 0 { b | (1 << 63) } else { !b }
}

/// Within this many ulps a float difference is reported as "last bits" rather than a wrong
/// value (a different summation order or a one-ulp-off elementary function).
const LAST_BITS_ULPS: u64 = 4;

/// `Linear(in_features=...` -> `Linear`: the first line of a module's repr.
fn module_repr(line: &str) -> Option<&str> {
    let name = &line[..line.find('(')?];
    let upper = name.chars().next()?.is_ascii_uppercase();
    (upper && name.chars().all(|c| c.is_ascii_alphanumeric())).then_some(name)
}

/// The kind of value a description line gives, without its numbers: `tuple of N`,
/// `tensor torch.float32`, `max torch.return_types.max(`, `int 3` -> `int`.
fn structure(line: &str) -> Option<String> {
    let body = line.rsplit(": ").next().unwrap_or(line);
    let mut words = body.split_whitespace();
    let first = words.next()?;
    let second = words.next().unwrap_or("");
    Some(if second == "of" {
        format!("{first} of N")
    } else if second.starts_with("torch.") {
        format!("{first} {second}")
    } else {
        first.to_string()
    })
}

/// For two tensor lines of the same dtype and shape: the index of the first differing value
/// and the two values.
fn first_differing_number(want: &str, got: &str) -> Option<(usize, String, String)> {
    let (_, wd, ws, wv) = tensor_line(want)?;
    let (_, gd, gs, gv) = tensor_line(got)?;
    if wd != gd || ws != gs {
        return None;
    }
    let (w, g) = (numbers(wv), numbers(gv));
    let k = (0..w.len().max(g.len())).find(|&k| w.get(k) != g.get(k))?;
    let show = |v: Option<&&str>| v.map_or("<none>".to_string(), |s| s.to_string());
    Some((k, show(w.get(k)), show(g.get(k))))
}

fn line_finding(want: &str, got: &str) -> (&'static str, String) {
    match (tensor_line(want), tensor_line(got)) {
        (Some((wp, wd, ws, wv)), Some((gp, gd, gs, gv))) => {
            if wp != gp {
                (
                    "wrong output",
                    format!("different structure: `{wp}` vs `{gp}`"),
                )
            } else if wd != gd {
                (
                    "wrong dtype",
                    format!("dtype {gd} where PyTorch gives {wd}"),
                )
            } else if ws != gs {
                (
                    "wrong shape",
                    format!("shape {gs} where PyTorch gives {ws}"),
                )
            } else {
                let single = wd == "torch.float32";
                let float = single || wd == "torch.float64";
                match max_ulps(wv, gv, single).filter(|_| float) {
                    Some(u) if u <= LAST_BITS_ULPS => (
                        if single {
                            "float32 last bits"
                        } else {
                            "float64 last bits"
                        },
                        format!(
                            "{} values differ in the last bits (at most {u} ulp)",
                            wd.trim_start_matches("torch.")
                        ),
                    ),
                    _ => (
                        "wrong value",
                        format!("{} values differ", wd.trim_start_matches("torch.")),
                    ),
                }
            }
        }
        _ => {
            let printing = want.trim_start().starts_with("tensor(")
                || want.contains("tensor([")
                || got.trim_start().starts_with("tensor(");
            if printing {
                ("wrong printing", "printed tensor differs".to_string())
            } else if want.starts_with("step ") && got.starts_with("step ") {
                ("wrong value", "optimizer trajectory differs".to_string())
            } else if let Some(class) = module_repr(want) {
                ("wrong repr", format!("{class} repr differs"))
            } else if let (Some(w), Some(g)) = (structure(want), structure(got)) {
                (
                    "wrong structure",
                    format!("returns `{g}` where PyTorch returns `{w}`"),
                )
            } else {
                ("wrong output", "output line differs".to_string())
            }
        }
    }
}

/// Compares one sample's lines with the recording's. `got` is None when the script never
/// printed this sample (it stopped before it).
pub(crate) fn judge(want: &[String], got: Option<&[String]>, ending: &Ending) -> Option<Finding> {
    let Some(got) = got else {
        let why = if ending.timed_out {
            "timed out".to_string()
        } else if ending.last_stderr.is_empty() {
            format!("exit status {:?}, nothing on stderr", ending.code)
        } else {
            ending.last_stderr.to_string()
        };
        let verdict = if engine_gap(&why) {
            Verdict::Unsupported
        } else {
            Verdict::Differs
        };
        return Some(Finding {
            verdict,
            kind: "script stopped",
            cause: format!(
                "script stopped before this sample: {}",
                clip(&normalise(&why), 110)
            ),
            detail: format!("script stopped before this sample: {}", clip(&why, 200)),
        });
    };
    if want == got {
        return None;
    }
    let first = (0..want.len().max(got.len()))
        .find(|&i| want.get(i) != got.get(i))
        .unwrap_or(0);
    let w_line = want.get(first).map_or("<nothing>", |s| s.as_str());
    let g_line = got.get(first).map_or("<nothing>", |s| s.as_str());
    let detail = format!(
        "line {}: `{}` where PyTorch prints `{}`",
        first + 1,
        clip(g_line, 160),
        clip(w_line, 160)
    );
    let want_err = raised(want);
    let got_err = raised(got);
    if let Some((gi, g)) = got_err
        && gi == first
    {
        if engine_gap(g) {
            let (kind, cause) = gap_cause(g);
            return Some(Finding {
                verdict: Verdict::Unsupported,
                kind,
                cause,
                detail: format!("raises {}", clip(g, 200)),
            });
        }
        let (kind, cause) = match want_err {
            Some((wi, w)) if wi == first => {
                if exception_type(w) == exception_type(g) {
                    (
                        "wrong message",
                        format!(
                            "{} message differs (PyTorch: {})",
                            exception_type(w),
                            clip(&normalise(w), 100)
                        ),
                    )
                } else {
                    (
                        "wrong exception type",
                        format!(
                            "raises {} where PyTorch raises {}",
                            exception_type(g),
                            exception_type(w)
                        ),
                    )
                }
            }
            _ => (
                "unexpected exception",
                format!("raises where PyTorch returns: {}", clip(&normalise(g), 110)),
            ),
        };
        return Some(Finding {
            verdict: Verdict::Differs,
            kind,
            cause,
            detail,
        });
    }
    if let Some((wi, w)) = want_err
        && wi == first
    {
        return Some(Finding {
            verdict: Verdict::Differs,
            kind: "no exception",
            cause: format!(
                "no exception where PyTorch raises {}",
                clip(&normalise(w), 100)
            ),
            detail,
        });
    }
    if first >= want.len() || first >= got.len() {
        return Some(Finding {
            verdict: Verdict::Differs,
            kind: "wrong output",
            cause: if first >= want.len() {
                "extra output lines".to_string()
            } else {
                "missing output lines".to_string()
            },
            detail,
        });
    }
    let (kind, cause) = line_finding(w_line, g_line);
    let detail = first_differing_number(w_line, g_line).map_or(detail, |(k, w, g)| {
        format!("line {}, value {k}: {g} where PyTorch gives {w}", first + 1)
    });
    Some(Finding {
        verdict: Verdict::Differs,
        kind,
        cause,
        detail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    /// The finding for a sample whose PyTorch output is the one line `want` and whose
    /// cudatutor output is the one line `got`, from a script that ended cleanly.
    fn judge_one_line(want: &str, got: &str) -> Finding {
        judge(&lines(&[want]), Some(&lines(&[got])), &CLEAN)
            .unwrap_or_else(|| panic!("{got:?} judged identical to {want:?}"))
    }

    /// Asserts that cudatutor's one line `got` where PyTorch printed `want` is judged a missing
    /// feature, named `cause`.
    fn assert_unsupported(want: &str, got: &str, cause: &str) {
        let f = judge_one_line(want, got);
        assert_eq!((f.verdict, f.cause.as_str()), (Verdict::Unsupported, cause));
    }

    const CLEAN: Ending = Ending {
        last_stderr: "",
        code: Some(0),
        timed_out: false,
    };

    #[test]
    fn equal_blocks_are_identical() {
        let a = lines(&["tensor torch.float32 (1,) [1.0]"]);
        assert_eq!(judge(&a, Some(&a), &CLEAN), None);
    }

    #[test]
    fn a_missing_attribute_is_unsupported_and_names_what_is_missing() {
        assert_unsupported(
            "tensor torch.float32 (1,) [1.0]",
            "raised AttributeError: module 'torch' has no attribute 'hypot'",
            "missing torch.hypot",
        );
    }

    #[test]
    fn an_attribute_missing_on_a_plain_python_value_is_a_wrong_error_not_a_gap() {
        let f = judge_one_line(
            "raised TypeError: clamp_max(): argument 'input' must be Tensor, not int",
            "raised AttributeError: 'int' object has no attribute 'clamp'",
        );
        assert_eq!(
            (f.verdict, f.kind),
            (Verdict::Differs, "wrong exception type")
        );
    }

    #[test]
    fn a_missing_keyword_is_unsupported() {
        assert_unsupported(
            "tensor torch.float32 (1,) [1.0]",
            "raised TypeError: addmm() got an unexpected keyword argument 'alpha'",
            "missing keyword addmm() alpha=",
        );
    }

    #[test]
    fn one_ulp_in_float32_is_last_bits_and_more_is_a_wrong_value() {
        let want = lines(&["tensor torch.float32 (2,) [1.0, 0.10000000149011612]"]);
        let near = lines(&["tensor torch.float32 (2,) [1.0, 0.10000000894069672]"]);
        let far = lines(&["tensor torch.float32 (2,) [1.0, 0.2]"]);
        let f = judge(&want, Some(&near), &CLEAN).unwrap();
        assert_eq!((f.verdict, f.kind), (Verdict::Differs, "float32 last bits"));
        let f = judge(&want, Some(&far), &CLEAN).unwrap();
        assert_eq!(f.kind, "wrong value");
    }

    #[test]
    fn a_different_message_of_the_same_type_is_a_wrong_message() {
        let f = judge_one_line(
            "raised RuntimeError: size mismatch 3 vs 4",
            "raised RuntimeError: shapes differ",
        );
        assert_eq!(f.kind, "wrong message");
        assert!(f.cause.contains("size mismatch N vs N"), "{}", f.cause);
    }

    #[test]
    fn printing_and_dtype_differences_are_told_apart() {
        let want = lines(&["tensor torch.float32 (1,) [1.0]", "tensor([1.])"]);
        let got = lines(&["tensor torch.float32 (1,) [1.0]", "tensor([1.0000])"]);
        assert_eq!(
            judge(&want, Some(&got), &CLEAN).unwrap().kind,
            "wrong printing"
        );
        let got = lines(&["tensor torch.float64 (1,) [1.0]", "tensor([1.])"]);
        assert_eq!(
            judge(&want, Some(&got), &CLEAN).unwrap().kind,
            "wrong dtype"
        );
    }

    #[test]
    fn module_reprs_and_result_structures_are_named() {
        let f = judge_one_line(
            "GroupNorm(3, 12, eps=0.001, affine=True, bias=True)",
            "GroupNorm(3, 12, eps=0.001, affine=True)",
        );
        assert_eq!(
            (f.kind, f.cause.as_str()),
            ("wrong repr", "GroupNorm repr differs")
        );
        let f = judge_one_line("max of 2", "max torch.return_types.max(");
        assert_eq!(f.kind, "wrong structure");
        assert_eq!(
            f.cause,
            "returns `max torch.return_types.max(` where PyTorch returns `max of N`"
        );
    }

    #[test]
    fn a_sample_the_script_never_reached_carries_the_scripts_last_error() {
        let want = lines(&["tensor torch.float32 (1,) [1.0]"]);
        let ending = Ending {
            last_stderr: "SyntaxError: invalid syntax",
            code: Some(1),
            timed_out: false,
        };
        let f = judge(&want, None, &ending).unwrap();
        assert_eq!((f.verdict, f.kind), (Verdict::Differs, "script stopped"));
        assert!(f.detail.contains("SyntaxError"));
    }
}

//! `run --explain`: what the engine saw when a check failed, said precisely — the line, the
//! tensor, the offending element and its value against the bound, and the line where that
//! value entered (its tensor's creation, copy or last write). The engine records it
//! (engine/provenance.rs); this file only words it.

use crate::engine::provenance::{BadValue, Bound, Detail, Step, StepKind};
use crate::lesson::Lang;

/// The sentences for `detail`, with the script's `source` to quote its lines.
pub(crate) fn describe(detail: &Detail, source: &str, lang: Lang) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let quote = |line: u32| -> String {
        lines
            .get((line as usize).wrapping_sub(1))
            .map(|l| without_comment(l).trim().to_string())
            .unwrap_or_default()
    };
    match detail {
        Detail::BadValue { line, value } => bad_value(*line, value, &quote, lang),
        Detail::DeviceClash { line, op, operands } => {
            let mut out = Vec::new();
            let code = quote(*line);
            let listed: Vec<String> = operands
                .iter()
                .map(|o| {
                    let dims = o
                        .shape
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ");
                    format!("{} on {} (shape [{dims}])", o.role, o.device)
                })
                .collect();
            let op_en = if op.is_empty() {
                String::new()
            } else {
                format!(" ({op})")
            };
            out.push(lang.pick(
                format!(
                    "Line {line}{op_en} `{code}` got tensors on two devices: {}.",
                    listed.join(", ")
                ),
                format!(
                    "第 {line} 行{op_en} `{code}` 拿到了位于两个设备上的张量：{}。",
                    listed.join("，")
                ),
            ));
            // the odd one out: the operand whose device differs from the first's
            let first = operands
                .first()
                .map(|o| o.device.clone())
                .unwrap_or_default();
            let odd = operands
                .iter()
                .skip(1)
                .find(|o| o.device != first)
                .or(operands.first());
            for o in operands {
                let is_odd = odd.is_some_and(|d| std::ptr::eq(d, o));
                let traced = Traced::new(&o.role, &o.device, &o.history);
                if let Some(s) = placement(&traced, &quote, lang) {
                    out.push(if is_odd && o.device == "cpu" {
                        s + lang.pick(
                            " It never went to the GPU: give it `device=` where it is made (e.g. `device=x.device`), or register it with `self.register_buffer(...)` so `model.to(device)` moves it.",
                            " 它从未被移到 GPU：在创建它的地方加上 `device=`（例如 `device=x.device`），或用 `self.register_buffer(...)` 注册它，这样 `model.to(device)` 会移动它。",
                        )
                    } else {
                        s
                    });
                }
            }
            out
        }
    }
}

fn bad_value(line: u32, v: &BadValue, quote: &dyn Fn(u32) -> String, lang: Lang) -> Vec<String> {
    let code = quote(line);
    let name = argument_text(&code, &v.op, &v.role).unwrap_or_else(|| v.role.clone());
    let shown = if name
        .chars()
        .all(|c| c.is_alphanumeric() || "_.".contains(c))
    {
        name.clone()
    } else {
        format!("({name})")
    };
    let element = if v.position.is_empty() {
        shown.clone()
    } else {
        format!(
            "{shown}[{}]",
            v.position
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let (bound_en, bound_zh) = match &v.bound {
        Bound::Classes { classes } => {
            let what = if v.op == "nll_loss" {
                ("log-probabilities", "对数概率")
            } else {
                ("logits", "logits")
            };
            (
                format!(
                    "but the {} have {classes} classes (valid 0..{})",
                    what.0,
                    classes.saturating_sub(1)
                ),
                format!(
                    "但 {} 只有 {classes} 个类别（有效范围 0..{}）",
                    what.1,
                    classes.saturating_sub(1)
                ),
            )
        }
        Bound::Rows { rows } => (
            format!(
                "but the embedding table has {rows} rows (valid 0..{})",
                rows.saturating_sub(1)
            ),
            format!(
                "但 embedding 表只有 {rows} 行（有效范围 0..{}）",
                rows.saturating_sub(1)
            ),
        ),
        Bound::DimSize {
            dim,
            size,
            negative_ok,
        } => {
            let neg = if *negative_ok {
                format!(", or -{size}..-1")
            } else {
                String::new()
            };
            (
                format!(
                    "out of range for size {size} of dimension {dim} (valid 0..{}{neg})",
                    size.saturating_sub(1)
                ),
                format!(
                    "超出了第 {dim} 维的大小 {size}（有效范围 0..{}{neg}）",
                    size.saturating_sub(1)
                ),
            )
        }
        Bound::UnitInterval => (
            "but binary_cross_entropy takes probabilities in [0, 1] (apply torch.sigmoid first, or use BCEWithLogitsLoss on the raw scores)".to_string(),
            "但 binary_cross_entropy 只接受 [0, 1] 内的概率（先用 torch.sigmoid，或对原始分数使用 BCEWithLogitsLoss）".to_string(),
        ),
    };
    let more_en = if v.count > 1 {
        format!(
            " ({} elements are out of range; this is the first)",
            v.count
        )
    } else {
        String::new()
    };
    let more_zh = if v.count > 1 {
        format!("（共 {} 个元素越界；这是第一个）", v.count)
    } else {
        String::new()
    };
    let mut out = vec![lang.pick(
        format!(
            "{} on line {line} (`{code}`): {element} = {}, {bound_en}{more_en}.",
            v.op, v.value
        ),
        format!(
            "第 {line} 行的 {}（`{code}`）：{element} = {}，{bound_zh}{more_zh}。",
            v.op, v.value
        ),
    )];
    let device = v
        .history
        .last()
        .map(|s| s.device.clone())
        .unwrap_or_default();
    if let Some(h) = history(&Traced::new(&name, &device, &v.history), quote, lang) {
        out.push(h);
    }
    out
}

/// A tensor as the sentences name it (an operand's role, a variable), its device, and the steps
/// recorded for it that stand on a line of the script (line 0: made inside the engine).
struct Traced<'a> {
    name: &'a str,
    device: &'a str,
    steps: Vec<&'a Step>,
}

impl<'a> Traced<'a> {
    fn new(name: &'a str, device: &'a str, steps: &'a [Step]) -> Traced<'a> {
        let steps = steps.iter().filter(|s| s.line > 0).collect();
        Traced {
            name,
            device,
            steps,
        }
    }
}

/// "other (on cpu) got there on line 13 (`...`), where it was made: made on line 13 (`...`),
/// written in place on line 14 (`...`)." — the step that put the tensor on its device.
fn placement(t: &Traced, quote: &dyn Fn(u32) -> String, lang: Lang) -> Option<String> {
    let (role, device, known) = (t.name, t.device, &t.steps);
    let there = known.iter().rev().find(|s| s.kind != StepKind::Written)?;
    let how = match (there.kind, lang) {
        (StepKind::Copied, Lang::En) => "copied there",
        (_, Lang::En) => "made there",
        (StepKind::Copied, Lang::Zh) => "在那里被复制过去",
        (_, Lang::Zh) => "在那里创建",
    };
    let (line, code) = (there.line, quote(there.line));
    let history = if known.len() > 1 {
        let lead = lang.pick("; its history: ", "；它的经历：");
        format!("{lead}{}", path(known, quote, lang, there.line))
    } else {
        String::new()
    };
    Some(lang.pick(
        format!("{role} is on {device} since line {line} (`{code}`), {how}{history}."),
        format!("{role} 从第 {line} 行（`{code}`）起位于 {device}，{how}{history}。"),
    ))
}

/// The steps, each line's code quoted at its first mention only (`skip`: already quoted).
fn path(steps: &[&Step], quote: &dyn Fn(u32) -> String, lang: Lang, skip: u32) -> String {
    let mut quoted = vec![skip];
    let parts: Vec<String> = steps
        .iter()
        .map(|s| {
            let code = if quoted.contains(&s.line) {
                String::new()
            } else {
                quoted.push(s.line);
                match lang {
                    Lang::En => format!(" (`{}`)", quote(s.line)),
                    Lang::Zh => format!("（`{}`）", quote(s.line)),
                }
            };
            let (en, zh) = match s.kind {
                StepKind::Made => ("made", "创建"),
                StepKind::Copied => ("copied to", "复制到"),
                StepKind::Written => ("written in place", "原地写入"),
            };
            match (s.kind, lang) {
                (StepKind::Copied, Lang::En) => {
                    format!("{en} {} on line {}{code}", s.device, s.line)
                }
                (StepKind::Copied, Lang::Zh) => format!("第 {} 行{zh} {}{code}", s.line, s.device),
                (_, Lang::En) => format!("{en} on line {}{code}", s.line),
                (_, Lang::Zh) => format!("第 {} 行{zh}{code}", s.line),
            }
        })
        .collect();
    match lang {
        Lang::En => parts.join(", "),
        Lang::Zh => parts.join("，"),
    }
}

/// "That value entered on line 12 (`...`): made there, copied to cuda:0 on line 13 (`...`)."
fn history(t: &Traced, quote: &dyn Fn(u32) -> String, lang: Lang) -> Option<String> {
    let (name, device, steps) = (t.name, t.device, &t.steps);
    let entered = steps
        .iter()
        .rev()
        .find(|s| s.kind == StepKind::Written)
        .or_else(|| steps.iter().find(|s| s.kind == StepKind::Made))?;
    // a single step is the sentence itself
    let path = if steps.len() > 1 {
        path(steps, quote, lang, entered.line)
    } else {
        String::new()
    };
    let sep = if path.is_empty() {
        ""
    } else {
        lang.pick(": ", "：")
    };
    let step = if entered.kind == StepKind::Written {
        lang.pick("last write", "最后一次写入")
    } else {
        lang.pick("creation", "创建")
    };
    let (line, code) = (entered.line, quote(entered.line));
    Some(lang.pick(
        format!(
            "That value entered on line {line} (`{code}`), the {step} of {name} (now on {device}){sep}{path}."
        ),
        format!("这个值是在第 {line} 行（`{code}`）进入的，即 {name}（现在位于 {device}）的{step}{sep}{path}。"),
    ))
}

/// A line of Python without its `# comment` (a `#` inside a string stays).
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' => return line[..i].trim_end(),
            None => {}
        }
    }
    line
}

/// The source text of the argument `role` of `op` on a line of code, when it can be told:
/// `labels` in `loss = F.cross_entropy(logits, labels)`, `ids` in `self.emb(ids)`.
pub(crate) fn argument_text(code: &str, op: &str, role: &str) -> Option<String> {
    let code = code.split('#').next().unwrap_or("");
    if matches!(op, "index" | "getitem" | "setitem") {
        return subscript(code);
    }
    let calls = calls(code);
    let position = |name: &str, method_pos: usize, function_pos: usize| {
        calls.iter().rev().find_map(|(callee, args)| {
            let last = callee.rsplit('.').next().unwrap_or(callee);
            if last != name {
                return None;
            }
            if let Some(a) = keyword(args, role) {
                return Some(a);
            }
            let is_function = callee.starts_with("torch.") || callee.starts_with("F.");
            args.get(if is_function {
                function_pos
            } else {
                method_pos
            })
            .cloned()
        })
    };
    let named = match op {
        "cross_entropy" | "nll_loss" => position(op, 1, 1),
        "binary_cross_entropy" => position(
            op,
            usize::from(role == "target"),
            usize::from(role == "target"),
        ),
        "embedding" => position("embedding", 0, 0),
        "index_select" => position("index_select", 1, 2),
        "gather" => position("gather", 1, 2),
        _ => None,
    };
    if named.is_some() {
        return named;
    }
    // a module or helper called on the line: `criterion(out, y)`, `self.emb(ids)`
    let want = match (op, role) {
        ("cross_entropy" | "nll_loss", _) => Some((2, 1)),
        ("binary_cross_entropy", "input") => Some((2, 0)),
        ("binary_cross_entropy", _) => Some((2, 1)),
        ("embedding", _) => Some((1, 0)),
        _ => None,
    }?;
    let candidates: Vec<&(String, Vec<String>)> =
        calls.iter().filter(|(_, a)| a.len() == want.0).collect();
    match candidates.as_slice() {
        [(_, args)] => args.get(want.1).cloned(),
        _ => None,
    }
}

fn keyword(args: &[String], role: &str) -> Option<String> {
    args.iter().find_map(|a| {
        let (k, v) = a.split_once('=')?;
        (k.trim() == role && !v.starts_with('=')).then(|| v.trim().to_string())
    })
}

/// Every call on a line: (callee as written, its top-level arguments).
fn calls(code: &str) -> Vec<(String, Vec<String>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if c != '(' {
            continue;
        }
        let mut s = i;
        while s > 0
            && (chars[s - 1].is_alphanumeric() || chars[s - 1] == '_' || chars[s - 1] == '.')
        {
            s -= 1;
        }
        let callee: String = chars[s..i].iter().collect();
        if callee.is_empty() || callee.starts_with('.') {
            continue;
        }
        if let Some(args) = balanced_args(&chars[i + 1..]) {
            out.push((callee, args));
        }
    }
    out
}

/// The top-level comma-separated pieces up to the matching `)`.
fn balanced_args(rest: &[char]) -> Option<Vec<String>> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut args = Vec::new();
    let mut cur = String::new();
    for &c in rest {
        if let Some(q) = quote {
            cur.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                cur.push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' | '}' if depth == 0 => {
                if c != ')' {
                    return None;
                }
                if !cur.trim().is_empty() {
                    args.push(cur.trim().to_string());
                }
                return Some(args);
            }
            ')' | ']' | '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => args.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    None
}

/// The index expression of the first subscript on a line (`rows` in `x[rows]`).
fn subscript(code: &str) -> Option<String> {
    let chars: Vec<char> = code.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '['
            && i > 0
            && (chars[i - 1].is_alphanumeric() || matches!(chars[i - 1], '_' | ')' | ']'))
        {
            let mut depth = 0;
            for (j, &d) in chars.iter().enumerate().skip(i + 1) {
                match d {
                    '[' | '(' => depth += 1,
                    ']' if depth == 0 => {
                        let inner: String = chars[i + 1..j].iter().collect();
                        return Some(inner.trim().to_string()).filter(|s| !s.is_empty());
                    }
                    ']' | ')' => depth -= 1,
                    _ => {}
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::argument_text;

    #[test]
    fn the_argument_is_read_from_the_call() {
        let a = |code: &str, op: &str, role: &str| argument_text(code, op, role);
        assert_eq!(
            a(
                "loss = F.cross_entropy(logits, labels)",
                "cross_entropy",
                "target"
            )
            .as_deref(),
            Some("labels")
        );
        assert_eq!(
            a(
                "loss = F.cross_entropy(out, target=y[:, 0])",
                "cross_entropy",
                "target"
            )
            .as_deref(),
            Some("y[:, 0]")
        );
        assert_eq!(
            a(
                "loss = criterion(model(x), batch_labels)",
                "cross_entropy",
                "target"
            )
            .as_deref(),
            Some("batch_labels")
        );
        assert_eq!(
            a("v = self.emb(ids)", "embedding", "indices").as_deref(),
            Some("ids")
        );
        assert_eq!(
            a("r = table.index_select(0, rows)", "index_select", "index").as_deref(),
            Some("rows")
        );
        assert_eq!(
            a("print(x[rows])", "index", "index").as_deref(),
            Some("rows")
        );
        assert_eq!(a("y = f(g(a, b), c)", "cross_entropy", "target"), None);
    }

    #[test]
    fn comments_are_cut_from_quoted_lines_but_not_from_strings() {
        assert_eq!(super::without_comment("x = 1  # origin"), "x = 1");
        assert_eq!(super::without_comment("s = '#no'  # yes"), "s = '#no'");
        assert_eq!(
            super::without_comment("print(\"a\\\"#b\")"),
            "print(\"a\\\"#b\")"
        );
    }
}

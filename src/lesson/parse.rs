//! Parsing one lesson file: TOML front matter between `+++` lines, then Markdown whose fenced
//! blocks with special info strings carry the exercises, checks, hints, solutions and quizzes.
//! Every rejection names the file and line; nothing here panics on any input.

use super::model::{Exercise, Lesson, LessonError, Quiz, RightFix, WrongFix};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde::Deserialize;
use std::collections::HashMap;

/// Deepest nesting of quotes and lists a lesson may use: the guide needs 3; past this the
/// pager's prefixes would fill the screen, so the loader names the line instead.
const MAX_NESTING: usize = 16;

/// What a fenced block's info string says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenceKind {
    Exercise {
        id: String,
        /// Simulated GPUs the exercise needs at least (`gpus=2`); 1 when not given.
        gpus: u32,
        /// Variables the learner predicts (`predict=origin,reported`); empty when not given.
        predict: Vec<String>,
    },
    Check,
    Hint,
    Solution,
    /// A plausible wrong fix (```` ```python wrong ````), hidden from the learner.
    Wrong,
    /// A correct fix written differently from the solution (```` ```python right ````),
    /// hidden from the learner.
    Right,
    Quiz,
    /// An ordinary code block, shown but not run; the language is kept for highlighting.
    Plain(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    id: String,
    title: String,
    order: u32,
    lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizToml {
    question: String,
    choices: Vec<String>,
    answer: usize,
    #[serde(default)]
    explain: String,
}

/// Reads an info string such as `python exercise id=labels-range`.
pub fn classify_fence(info: &str) -> Result<FenceKind, String> {
    let mut words = info.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let no_attributes = |kind: FenceKind, name: &str| {
        if let Some(extra) = rest.get(if name == "hint" || name == "quiz" {
            0
        } else {
            1
        }) {
            Err(format!(
                "unknown attribute `{extra}` on a `{name}` block (it takes none)"
            ))
        } else {
            Ok(kind)
        }
    };
    match first {
        "hint" => no_attributes(FenceKind::Hint, "hint"),
        "quiz" => no_attributes(FenceKind::Quiz, "quiz"),
        "python" => match rest.first().copied() {
            None => Ok(FenceKind::Plain("python".into())),
            Some("check") => no_attributes(FenceKind::Check, "check"),
            Some("solution") => no_attributes(FenceKind::Solution, "solution"),
            Some("wrong") => no_attributes(FenceKind::Wrong, "wrong"),
            Some("right") => no_attributes(FenceKind::Right, "right"),
            Some("exercise") => {
                let mut id = None;
                let mut gpus = 1;
                let mut predict: Option<Vec<String>> = None;
                for attr in &rest[1..] {
                    match attr.split_once('=') {
                        Some(("predict", value)) => {
                            let names: Vec<String> =
                                value.split(',').map(|n| n.trim().to_string()).collect();
                            if let Some(bad) = names.iter().find(|n| !is_identifier(n)) {
                                return Err(format!(
                                    "`predict={value}`: `{bad}` is not a variable name (write `predict=name1,name2`)"
                                ));
                            }
                            // each name is looked up in the starting code (and every
                            // submission): a handful is a lesson, thousands are a stall
                            if names.len() > MAX_PREDICTED {
                                return Err(format!(
                                    "`predict=` names {} variables: at most {MAX_PREDICTED}",
                                    names.len()
                                ));
                            }
                            if predict.replace(names).is_some() {
                                return Err("`predict=` given twice on an exercise block".into());
                            }
                        }
                        Some(("gpus", value)) => match value.parse::<u32>() {
                            Ok(n @ 1..=16) => gpus = n,
                            _ => {
                                return Err(format!(
                                    "`gpus={value}` must be a number of GPUs from 1 to 16"
                                ));
                            }
                        },
                        Some(("id", value)) if !value.is_empty() => {
                            if id.replace(value.trim_matches('"').to_string()).is_some() {
                                return Err("`id=` given twice on an exercise block".into());
                            }
                        }
                        _ => {
                            return Err(format!(
                                "unknown attribute `{attr}` on an exercise block (expected `id=NAME` and optionally `gpus=N`, `predict=NAMES`)"
                            ));
                        }
                    }
                }
                match id {
                    Some(id) if valid_id(&id) => Ok(FenceKind::Exercise {
                        id,
                        gpus,
                        predict: predict.unwrap_or_default(),
                    }),
                    Some(id) => Err(format!(
                        "exercise id `{id}` may hold only letters, digits, `-` and `_`"
                    )),
                    None => Err("an exercise block needs `id=NAME`".into()),
                }
            }
            Some(other) => Err(format!(
                "unknown block kind `python {other}` (expected exercise, check, solution, wrong or right)"
            )),
        },
        other => Ok(FenceKind::Plain(other.to_string())),
    }
}

/// At most this many names in one `predict=`.
pub(super) const MAX_PREDICTED: usize = 32;

/// A Python identifier in ASCII (what a `predict=` name may be).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Parses a whole lesson file. `source_name` is used only for error messages.
pub fn parse_lesson(source_name: &str, text: &str) -> Result<Lesson, LessonError> {
    let err = |line: usize, message: String| LessonError {
        file: source_name.to_string(),
        line,
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("+++") {
        return Err(err(
            1,
            "a lesson must start with a `+++` line opening its TOML front matter".into(),
        ));
    }
    let mut front_len = 0;
    let mut closing_line = None;
    for (i, line) in lines.enumerate() {
        if line.trim_end() == "+++" {
            closing_line = Some(i + 2);
            break;
        }
        front_len += line.len();
    }
    let Some(closing_line) = closing_line else {
        return Err(err(
            1,
            "the front matter opened on this line is never closed by a `+++` line".into(),
        ));
    };
    let front_start = text.find('\n').map_or(text.len(), |i| i + 1);
    let front = &text[front_start..front_start + front_len];
    let meta: FrontMatter = toml::from_str(front).map_err(|e| {
        let line = e.span().map_or(0, |s| line_of(front, s.start));
        err(2 + line, format!("bad front matter: {}", e.message()))
    })?;
    if !valid_id(&meta.id) {
        return Err(err(
            2,
            format!(
                "lesson id `{}` may hold only letters, digits, `-` and `_`",
                meta.id
            ),
        ));
    }
    if meta.title.trim().is_empty() {
        return Err(err(2, "the lesson title is empty".into()));
    }
    let body_start = text[front_start + front_len..]
        .find('\n')
        .map_or(text.len(), |i| front_start + front_len + i + 1);
    let body = &text[body_start..];
    let body_first_line = closing_line + 1;

    let mut exercises: Vec<Exercise> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut quizzes = Vec::new();
    let mut open: Option<(FenceKind, usize, String)> = None;
    let mut lines = LineCounter::new(body);
    let mut depth = 0usize;
    for (event, range) in Parser::new_ext(body, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::BlockQuote(_) | Tag::List(_)) => {
                depth += 1;
                if depth > MAX_NESTING {
                    let line = body_first_line + lines.line_at(range.start);
                    return Err(err(
                        line,
                        format!(
                            "quotes and lists nested deeper than {MAX_NESTING} levels (the pager could not show them; flatten the nesting)"
                        ),
                    ));
                }
            }
            Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_)) => {
                depth = depth.saturating_sub(1);
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let line = body_first_line + lines.line_at(range.start);
                let kind = classify_fence(&info).map_err(|m| err(line, m))?;
                open = Some((kind, line, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, _, code)) = open.as_mut() {
                    code.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((kind, line, code)) = open.take() {
                    attach_block(kind, line, code, &mut exercises, &mut ids, &mut quizzes)
                        .map_err(|m| err(line, m))?;
                }
            }
            _ => {}
        }
    }
    Ok(Lesson {
        id: meta.id,
        title: meta.title,
        order: meta.order,
        lang: meta.lang.unwrap_or_else(|| "en".into()),
        source_name: source_name.to_string(),
        body: body.to_string(),
        body_first_line,
        exercises,
        quizzes,
    })
}

/// Files a special block under the exercise it belongs to (the last one opened before it).
fn attach_block(
    kind: FenceKind,
    line: usize,
    code: String,
    exercises: &mut Vec<Exercise>,
    ids: &mut HashMap<String, usize>,
    quizzes: &mut Vec<Quiz>,
) -> Result<(), String> {
    let what = match &kind {
        FenceKind::Check => "check",
        FenceKind::Hint => "hint",
        FenceKind::Solution => "solution",
        FenceKind::Wrong => "wrong",
        FenceKind::Right => "right",
        _ => "",
    };
    match kind {
        FenceKind::Plain(_) => {}
        FenceKind::Exercise { id, gpus, predict } => {
            if let Some(first_line) = ids.get(&id) {
                return Err(format!(
                    "duplicate exercise id `{id}` (first used on line {first_line})"
                ));
            }
            ids.insert(id.clone(), line);
            for name in &predict {
                if predicted_start(&code, name).is_none() {
                    return Err(format!(
                        "`predict={name}`: the starting code never assigns `{name} = ...` at its top level, so there is no starting value to compare the prediction with"
                    ));
                }
            }
            if let Some(problem) = super::predict::first_problem(&code, &predict) {
                return Err(format!(
                    "the starting code's predictions must be written values: {}",
                    super::predict::message(&problem, "en")
                ));
            }
            exercises.push(Exercise {
                id,
                start_code: code,
                check: None,
                hints: Vec::new(),
                solution: None,
                line,
                gpus,
                predict,
                wrongs: Vec::new(),
                rights: Vec::new(),
            });
        }
        FenceKind::Quiz => quizzes.push(parse_quiz(&code, line)?),
        FenceKind::Check
        | FenceKind::Hint
        | FenceKind::Solution
        | FenceKind::Wrong
        | FenceKind::Right => {
            let Some(exercise) = exercises.last_mut() else {
                return Err(format!("a `{what}` block with no exercise before it"));
            };
            let slot = match what {
                "hint" => {
                    exercise.hints.push(code.trim_end().to_string());
                    return Ok(());
                }
                "wrong" => {
                    exercise.wrongs.push(parse_wrong(code, line)?);
                    return Ok(());
                }
                "right" => {
                    let (note, code) = reason_and_code(code, "right")?;
                    exercise.rights.push(RightFix { note, code, line });
                    return Ok(());
                }
                "check" => &mut exercise.check,
                _ => &mut exercise.solution,
            };
            if slot.is_some() {
                return Err(format!(
                    "exercise `{}` already has a `{what}` block",
                    exercise.id
                ));
            }
            *slot = Some(code);
        }
    }
    Ok(())
}

/// A wrong block: its first line is `# why this fix is wrong`, the rest is the code.
fn parse_wrong(code: String, line: usize) -> Result<WrongFix, String> {
    let (reason, code) = reason_and_code(code, "wrong")?;
    Ok(WrongFix { reason, code, line })
}

/// The first line of a `wrong` or `right` block (a `# ...` comment saying why it is wrong, or
/// how this right fix differs from the solution) and the code after it.
fn reason_and_code(code: String, what: &str) -> Result<(String, String), String> {
    let (first, rest) = code.split_once('\n').unwrap_or((code.as_str(), ""));
    let reason = first
        .trim()
        .strip_prefix('#')
        .map(str::trim)
        .filter(|r| !r.is_empty());
    let Some(reason) = reason else {
        return Err(if what == "wrong" {
            "a `wrong` block must start with a comment line giving the reason the fix is wrong (`# ...`)".into()
        } else {
            "a `right` block must start with a comment line saying how this fix differs from the solution (`# ...`)".into()
        });
    };
    if rest.trim().is_empty() {
        let first = if what == "wrong" { "reason" } else { "note" };
        return Err(format!(
            "a `{what}` block holds no code after its {first} line"
        ));
    }
    Ok((reason.to_string(), rest.to_string()))
}

/// The source of the expression the starting code assigns to `name` at its top level (the
/// last such assignment), e.g. `0` for `origin = 0     # ...`. None when there is none or the
/// code does not parse.
pub fn predicted_start(code: &str, name: &str) -> Option<String> {
    use rustpython_ruff_python_ast::{Expr, Stmt};
    use rustpython_ruff_text_size::Ranged;
    let module = rustpython_ruff_python_parser::parse_module(code)
        .ok()?
        .into_syntax();
    let mut found = None;
    for stmt in &module.body {
        let (targets, value): (Vec<&Expr>, &Expr) = match stmt {
            Stmt::Assign(a) => (a.targets.iter().collect(), &a.value),
            Stmt::AnnAssign(a) => match &a.value {
                Some(v) => (vec![&*a.target], &**v),
                None => continue,
            },
            _ => continue,
        };
        let assigns = targets
            .iter()
            .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name));
        if assigns {
            let range = value.range();
            found = code
                .get(usize::from(range.start())..usize::from(range.end()))
                .map(str::to_string);
        }
    }
    found
}

fn parse_quiz(code: &str, line: usize) -> Result<Quiz, String> {
    let quiz: QuizToml = toml::from_str(code).map_err(|e| {
        let at = e.span().map_or(0, |s| line_of(code, s.start));
        format!("bad quiz (its line {}): {}", at + 1, e.message())
    })?;
    if quiz.choices.len() < 2 {
        return Err("a quiz needs at least two choices".into());
    }
    if quiz.answer == 0 || quiz.answer > quiz.choices.len() {
        return Err(format!(
            "quiz answer {} is not one of the choices 1..{}",
            quiz.answer,
            quiz.choices.len()
        ));
    }
    Ok(Quiz {
        question: quiz.question,
        choices: quiz.choices,
        answer: quiz.answer,
        explain: quiz.explain,
        line,
    })
}

/// 0-based line index of a byte offset.
/// Line numbers (0-based) of increasing byte offsets, counted forward from the last one, so
/// a file with 10^5 blocks is scanned once (counting from the start each time was quadratic:
/// 10^4 exercises took 16 s to load).
struct LineCounter<'a> {
    text: &'a [u8],
    offset: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        LineCounter {
            text: text.as_bytes(),
            offset: 0,
            line: 0,
        }
    }

    fn line_at(&mut self, at: usize) -> usize {
        let at = at.min(self.text.len());
        if at < self.offset {
            // out of order (never for the parser's events): count from the start again
            self.offset = 0;
            self.line = 0;
        }
        self.line += self.text[self.offset..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.offset = at;
        self.line
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

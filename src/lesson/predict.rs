//! Predictions that are predictions.
//!
//! An exercise with `predict=a,b` asks the learner to write down what they expect before the
//! run shows it. Two things make that honest, both decided from the code alone, before or
//! without running anything:
//!
//! - a predicted variable is assigned a *value the learner wrote*: a constant expression
//!   (literals, arithmetic and comparisons on them, tuples and lists of them, other predicted
//!   variables), at module level, and bound no other way. `predicted = torch.cuda.
//!   memory_allocated()` or `where_b = str(b.device)` is an observation, not a prediction
//!   ([`first_problem`]);
//! - the checks judge a prediction against the run of the code *as given*: [`code_unchanged`]
//!   says whether the learner's code is the starting code apart from the values of the
//!   predicted variables (so adding `CUDA_LAUNCH_BLOCKING=1` or a `synchronize()` to make the
//!   answer trivial is seen). Checks use it through the `code_unchanged()` helper.
//!
//! Grading calls [`judge`] once per run; the loader rejects a starting code whose predicted
//! variables are not constants.

use rustpython_ruff_python_ast::comparable::{ComparableExpr, ComparableStmt};
use rustpython_ruff_python_ast::visitor::{self, Visitor};
use rustpython_ruff_python_ast::{Expr, Stmt, StmtClassDef, StmtFunctionDef};
use rustpython_ruff_text_size::Ranged;

/// Why the learner's predictions cannot be graded as predictions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    /// `name` is assigned something that is computed when the code runs.
    Computed { name: String, line: usize },
    /// `name` is bound some other way than `name = value` at module level (a loop variable,
    /// an import, `global name` in a function, `:=`, `del` ...).
    BoundOtherwise { name: String, line: usize },
    /// The code reaches module variables behind the assignments' back (`globals()`,
    /// `exec`, `sys.modules`, `import __main__`).
    Dynamic { what: String, line: usize },
}

/// What grading needs to know about the predictions of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PredictionVerdict {
    /// The learner-facing reason the predictions are not predictions, in the lesson's
    /// language; None when they are (or the exercise asks for none, or the code does not
    /// parse: its SyntaxError comes first).
    pub problem: Option<String>,
    /// The code is the starting code except for the values of the predicted variables.
    pub code_unchanged: bool,
}

/// The verdict for `code`, an attempt at an exercise whose starting code is `start_code` and
/// whose predicted variables are `names`; messages in `lang` (`zh`, else English).
pub(crate) fn judge(
    code: &str,
    start_code: &str,
    names: &[String],
    lang: &str,
) -> PredictionVerdict {
    let problem = if names.is_empty() {
        None
    } else {
        first_problem(code, names).map(|p| message(&p, lang))
    };
    PredictionVerdict {
        problem,
        code_unchanged: code_unchanged(start_code, code, names),
    }
}

/// The first reason (in source order) the predicted variables of `code` are not written
/// values; None when they all are, or when the code does not parse.
pub(crate) fn first_problem(code: &str, names: &[String]) -> Option<Problem> {
    let module = rustpython_ruff_python_parser::parse_module(code)
        .ok()?
        .into_syntax();
    let mut finder = Finder {
        code,
        names,
        depth: 0,
        problems: Vec::new(),
    };
    for stmt in &module.body {
        finder.visit_stmt(stmt);
    }
    finder
        .problems
        .into_iter()
        .min_by_key(|(offset, _)| *offset)
        .map(|(_, p)| p)
}

/// Whether `code` is `start` apart from the values assigned to the predicted variables
/// (comments, blank lines and spacing aside). False when either does not parse.
pub(crate) fn code_unchanged(start: &str, code: &str, names: &[String]) -> bool {
    let parse = |s: &str| {
        rustpython_ruff_python_parser::parse_module(s)
            .ok()
            .map(|p| p.into_syntax())
    };
    let (Some(a), Some(b)) = (parse(start), parse(code)) else {
        return false;
    };
    a.body.len() == b.body.len()
        && a.body.iter().zip(&b.body).all(|(x, y)| {
            match (prediction_targets(x, names), prediction_targets(y, names)) {
                (Some(tx), Some(ty)) => {
                    tx.len() == ty.len()
                        && tx
                            .iter()
                            .zip(&ty)
                            .all(|(p, q)| ComparableExpr::from(*p) == ComparableExpr::from(*q))
                }
                (None, None) => ComparableStmt::from(x) == ComparableStmt::from(y),
                _ => false,
            }
        })
}

/// The targets of a module-level assignment that binds a predicted variable (its value is the
/// learner's to change), or None for any other statement.
fn prediction_targets<'a>(stmt: &'a Stmt, names: &[String]) -> Option<Vec<&'a Expr>> {
    let targets: Vec<&Expr> = match stmt {
        Stmt::Assign(a) => a.targets.iter().collect(),
        Stmt::AnnAssign(a) if a.value.is_some() => vec![&*a.target],
        _ => return None,
    };
    let mut bound = Vec::new();
    for t in &targets {
        bound_names(t, &mut bound);
    }
    bound
        .iter()
        .any(|n| names.iter().any(|p| p == n))
        .then_some(targets)
}

/// The plain names an assignment target binds (`a`, `a, (b, *c)`), not attributes or items.
fn bound_names(target: &Expr, out: &mut Vec<String>) {
    match target {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::Starred(s) => bound_names(&s.value, out),
        _ => {}
    }
}

/// A value the learner wrote: literals, arithmetic, comparisons and collections of them, and
/// other predictions. Anything that runs code (a call, an attribute, an index) is not.
fn is_constant(e: &Expr, names: &[String]) -> bool {
    let all = |es: &[Expr]| es.iter().all(|x| is_constant(x, names));
    match e {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_) => true,
        Expr::UnaryOp(u) => is_constant(&u.operand, names),
        Expr::BinOp(b) => is_constant(&b.left, names) && is_constant(&b.right, names),
        Expr::BoolOp(b) => all(&b.values),
        Expr::Compare(c) => is_constant(&c.left, names) && all(&c.comparators),
        Expr::Tuple(t) => all(&t.elts),
        Expr::List(l) => all(&l.elts),
        Expr::Name(n) => names.iter().any(|p| p == n.id.as_str()),
        _ => false,
    }
}

/// Walks the code collecting every problem with its byte offset.
struct Finder<'c> {
    code: &'c str,
    names: &'c [String],
    /// 0 at module level (and in the bodies of module-level `if`, `for`, `with` ...), more
    /// inside functions and classes, whose assignments bind names of their own.
    depth: usize,
    problems: Vec<(usize, Problem)>,
}

impl Finder<'_> {
    fn predicted(&self, name: &str) -> Option<String> {
        self.names.iter().find(|p| p.as_str() == name).cloned()
    }

    fn line(&self, offset: usize) -> usize {
        self.code
            .get(..offset)
            .unwrap_or(self.code)
            .matches('\n')
            .count()
            + 1
    }

    fn push(&mut self, offset: usize, make: impl FnOnce(usize) -> Problem) {
        let line = self.line(offset);
        self.problems.push((offset, make(line)));
    }

    /// A binding of `target` that is not a module-level `name = value`.
    fn bound_otherwise(&mut self, target: &Expr) {
        let mut bound = Vec::new();
        bound_names(target, &mut bound);
        for n in bound {
            if let Some(name) = self.predicted(&n) {
                self.push(target.start().into(), |line| Problem::BoundOtherwise {
                    name,
                    line,
                });
            }
        }
    }

    /// Walks a scope of its own (a function's, a class's, a lambda's or comprehension's),
    /// whose assignments bind its own names.
    fn deeper(&mut self, walk: impl FnOnce(&mut Self)) {
        self.depth += 1;
        walk(self);
        self.depth -= 1;
    }

    fn identifier(&mut self, id: &str, offset: usize) {
        if let Some(name) = self.predicted(id) {
            self.push(offset, |line| Problem::BoundOtherwise { name, line });
        }
    }

    fn assignment(&mut self, targets: &[&Expr], value: &Expr) {
        if self.depth > 0 {
            // a function's or class's own variable; `global name` is caught on its own
            return;
        }
        let mut bound = Vec::new();
        for t in targets {
            bound_names(t, &mut bound);
        }
        if is_constant(value, self.names) {
            return;
        }
        for n in bound {
            if let Some(name) = self.predicted(&n) {
                self.push(value.start().into(), |line| Problem::Computed {
                    name,
                    line,
                });
            }
        }
    }
}

impl<'a> Visitor<'a> for Finder<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Assign(a) => {
                let targets: Vec<&Expr> = a.targets.iter().collect();
                self.assignment(&targets, &a.value);
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.assignment(&[&*a.target], v)
                }
            }
            Stmt::AugAssign(a) => self.assignment(&[&*a.target], &a.value),
            Stmt::For(f) if self.depth == 0 => self.bound_otherwise(&f.target),
            Stmt::With(w) if self.depth == 0 => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        self.bound_otherwise(v);
                    }
                }
            }
            Stmt::Delete(d) if self.depth == 0 => {
                for t in &d.targets {
                    self.bound_otherwise(t);
                }
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    if alias.name.id.as_str() == "__main__" {
                        self.push(alias.start().into(), |line| Problem::Dynamic {
                            what: "import __main__".into(),
                            line,
                        });
                    }
                    if self.depth == 0 {
                        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                        let top = bound.id.split('.').next().unwrap_or_default().to_string();
                        self.identifier(&top, alias.start().into());
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                if i.module
                    .as_ref()
                    .is_some_and(|m| m.id.as_str() == "__main__")
                {
                    self.push(i.start().into(), |line| Problem::Dynamic {
                        what: "from __main__ import".into(),
                        line,
                    });
                }
                if self.depth == 0 {
                    for alias in &i.names {
                        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                        self.identifier(bound.id.as_ref(), alias.start().into());
                    }
                }
            }
            Stmt::Global(g) => {
                for n in &g.names {
                    self.identifier(n.id.as_str(), n.start().into());
                }
            }
            Stmt::Nonlocal(g) => {
                for n in &g.names {
                    self.identifier(n.id.as_str(), n.start().into());
                }
            }
            // a def or class binds its name where it stands; its body is a deeper scope
            Stmt::FunctionDef(StmtFunctionDef { name, .. })
            | Stmt::ClassDef(StmtClassDef { name, .. }) => {
                if self.depth == 0 {
                    self.identifier(name.id.as_str(), name.start().into());
                }
                self.deeper(|f| visitor::walk_stmt(f, stmt));
                return;
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Named(n) => self.bound_otherwise(&n.target),
            Expr::Name(n)
                if matches!(
                    n.id.as_str(),
                    "globals" | "vars" | "locals" | "exec" | "eval"
                ) =>
            {
                let what = format!("{}()", n.id);
                self.push(n.start().into(), |line| Problem::Dynamic { what, line });
            }
            Expr::Attribute(a)
                if a.attr.id.as_str() == "modules"
                    && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "sys") =>
            {
                self.push(a.start().into(), |line| Problem::Dynamic {
                    what: "sys.modules".into(),
                    line,
                });
            }
            // a lambda's or comprehension's variables are its own
            Expr::Lambda(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => {
                self.deeper(|f| visitor::walk_expr(f, expr));
                return;
            }
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

/// The learner-facing reason, in the lesson's language.
pub(crate) fn message(problem: &Problem, lang: &str) -> String {
    let zh = lang == "zh";
    match problem {
        Problem::Computed { name, line } if zh => format!(
            "`{name}` 应当是你事先写下的预测值（数字、字符串或它们的算式），而不是由代码在运行时算出来的（第 {line} 行）：把你预计会看到的结果直接写进去"
        ),
        Problem::Computed { name, line } => format!(
            "`{name}` should be a prediction you write down (a number, a string, or arithmetic on them), not something your code computes while it runs (line {line}): type in what you expect to see"
        ),
        Problem::BoundOtherwise { name, line } if zh => format!(
            "预测变量 `{name}` 只能在模块顶层用 `{name} = 值` 赋值，第 {line} 行用别的方式绑定了它"
        ),
        Problem::BoundOtherwise { name, line } => format!(
            "the prediction `{name}` should be set only by `{name} = value` at the top level; line {line} binds it another way"
        ),
        Problem::Dynamic { what, line } if zh => {
            format!("预测要按你写下的样子来评判：第 {line} 行用了 `{what}`，它能绕过赋值改动变量")
        }
        Problem::Dynamic { what, line } => format!(
            "predictions are graded as you wrote them: line {line} uses `{what}`, which can change variables behind the assignments' back"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn written_values_are_predictions() {
        let n = names(&["a", "b", "c"]);
        let code = "import torch\na = 512 + 512 + 1024\nb: int = 2 * 1024 ** 2\nc = (a, 'cuda:0', -1, True, None, [1.5, b])\nx = torch.zeros(3)\n";
        assert_eq!(first_problem(code, &n), None);
        assert_eq!(first_problem("a = 0\na = 9\n", &n), None);
        assert_eq!(first_problem("a, b = 9, 12\n", &n), None);
    }

    #[test]
    fn computed_values_are_not() {
        let n = names(&["predicted_allocated", "where_b"]);
        let code = "import torch\nb = torch.zeros(1)\npredicted_allocated = torch.cuda.memory_allocated()\n";
        assert_eq!(
            first_problem(code, &n),
            Some(Problem::Computed {
                name: "predicted_allocated".into(),
                line: 3
            })
        );
        assert!(matches!(
            first_problem("where_b = str(b.device)\n", &n),
            Some(Problem::Computed { line: 1, .. })
        ));
        // a module-level `if` is still the module's scope
        assert!(matches!(
            first_problem("if True:\n    where_b = b.device.type\n", &n),
            Some(Problem::Computed { line: 2, .. })
        ));
        assert!(matches!(
            first_problem("where_b = 'cuda:0'\nwhere_b += suffix\n", &n),
            Some(Problem::Computed { line: 2, .. })
        ));
    }

    #[test]
    fn other_bindings_and_namespace_tricks_are_named() {
        let n = names(&["origin"]);
        for (code, line) in [
            ("for origin in range(3):\n    pass\n", 1),
            ("def f():\n    global origin\n    origin = 9\n", 2),
            ("x = [origin := 9]\n", 1),
            ("import os as origin\n", 1),
            ("with open('f') as origin:\n    pass\n", 1),
        ] {
            assert!(
                matches!(first_problem(code, &n), Some(Problem::BoundOtherwise { line: l, .. }) if l == line),
                "{code}: {:?}",
                first_problem(code, &n)
            );
        }
        for code in [
            "globals()['origin'] = 9\n",
            "import sys\nsetattr(sys.modules[__name__], 'origin', 9)\n",
            "import __main__\n__main__.origin = 9\n",
            "exec('origin = 9')\n",
        ] {
            assert!(
                matches!(first_problem(code, &n), Some(Problem::Dynamic { .. })),
                "{code}"
            );
        }
        // a function's own variable of the same name is not the prediction
        assert_eq!(
            first_problem(
                "origin = 9\ndef f():\n    origin = len([])\n    return origin\n",
                &n
            ),
            None
        );
    }

    #[test]
    fn code_is_unchanged_when_only_the_predicted_values_differ() {
        let n = names(&["origin", "reported"]);
        let start = "import torch\n\norigin = 0     # guess\nreported = 0\nx = torch.zeros(2)\nprint(x.sum().item())\n";
        let guess = "import torch\n# my guesses\norigin = 9\nreported   = 12 # hm\nx = torch.zeros(2)\n\nprint(x.sum().item())\n";
        assert!(code_unchanged(start, guess, &n));
        assert!(!code_unchanged(
            start,
            &guess.replace(
                "import torch\n",
                "import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\nimport torch\n"
            ),
            &n
        ));
        assert!(!code_unchanged(
            start,
            &guess.replace("zeros(2)", "zeros(3)"),
            &n
        ));
        assert!(!code_unchanged(
            start,
            &guess.replace("reported   = 12", "other = 12"),
            &n
        ));
        assert!(!code_unchanged(start, "origin = = 0", &n));
    }

    #[test]
    fn judge_speaks_the_lesson_language_and_only_for_prediction_exercises() {
        let code = "x = 1\norigin = x + 1\n";
        let en = judge(code, code, &names(&["origin"]), "en");
        assert!(en.problem.unwrap().contains("line 2"));
        assert!(en.code_unchanged);
        let zh = judge(code, code, &names(&["origin"]), "zh");
        assert!(zh.problem.unwrap().contains("第 2 行"));
        assert_eq!(judge(code, "x = 2\n", &[], "en").problem, None);
        assert!(!judge(code, "x = 2\n", &[], "en").code_unchanged);
    }
}

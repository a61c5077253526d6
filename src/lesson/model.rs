//! The lesson model: what a lesson file means once it is parsed.

/// One lesson: front matter plus the Markdown body and the interactive pieces found in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub order: u32,
    pub lang: String,
    /// Where it came from, for error messages (`lessons/en/03-device-asserts.md` or a path).
    pub source_name: String,
    /// The Markdown body after the front matter.
    pub body: String,
    /// 1-based line of the body's first line in the file, so body offsets map to file lines.
    pub body_first_line: usize,
    pub exercises: Vec<Exercise>,
    pub quizzes: Vec<Quiz>,
}

/// A live exercise: starting code (buggy on purpose), its checks, hints and solution.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    pub id: String,
    pub start_code: String,
    pub check: Option<String>,
    pub hints: Vec<String>,
    pub solution: Option<String>,
    /// 1-based line of the opening fence in the lesson file.
    pub line: usize,
    /// Simulated GPUs the exercise needs at least (`gpus=2` on the fence), e.g. DataParallel.
    pub gpus: u32,
    /// Variables the learner fills in with a prediction (`predict=origin,reported` on the
    /// fence): until each differs from its starting value, a run's answer stays hidden.
    pub predict: Vec<String>,
    /// Plausible wrong fixes (```` ```python wrong ```` blocks): each must fail the checks.
    pub wrongs: Vec<WrongFix>,
    /// Correct fixes written differently from the solution (```` ```python right ````
    /// blocks): each must pass the checks, so the checks are known not to demand one wording.
    pub rights: Vec<RightFix>,
}

/// A plausible fix that is wrong, and why: lint and the test suite require it to fail the
/// exercise's checks, so the checks are known to catch it.
#[derive(Debug, Clone, PartialEq)]
pub struct WrongFix {
    /// The one-line reason, from the block's first line (`# reason`), without the `#`.
    pub reason: String,
    /// The code after that first line, run as the learner's code.
    pub code: String,
    /// 1-based line of the opening fence in the lesson file.
    pub line: usize,
}

/// A correct fix other than the solution, and what makes it different: lint and the test
/// suite require it to pass the exercise's checks.
#[derive(Debug, Clone, PartialEq)]
pub struct RightFix {
    /// The one-line note, from the block's first line (`# note`), without the `#`.
    pub note: String,
    /// The code after that first line, run as the learner's code.
    pub code: String,
    /// 1-based line of the opening fence in the lesson file.
    pub line: usize,
}

/// A multiple-choice question; `answer` is 1-based, as written in the lesson file.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    pub question: String,
    pub choices: Vec<String>,
    pub answer: usize,
    pub explain: String,
    pub line: usize,
}

/// A lesson file that cannot be used, with the place and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for LessonError {}

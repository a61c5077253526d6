//! Quizzes outside the pager: `cudatutor quiz LESSON` shows a lesson's quizzes with their
//! choices and the learner's answers, and `cudatutor answer LESSON QUIZ CHOICE` answers one.
//! The first answer is the grade, as in the pager (both go through [`Progress::answer_quiz`]);
//! the explanation, with the right answer, is shown after any answer. With `edit`, `watch` and
//! `hint`, every part of a lesson can be done without the pager.

use crate::lesson::{Lang, Lesson};
use crate::progress::{Progress, quiz_key};

/// The fixed words of `quiz` and `answer`, in one language.
pub(crate) struct QuizText {
    /// `{n}`, `{total}`, `{lesson}` (the lesson's number), `{id}`.
    pub heading: &'static str,
    /// `{choice}`, `{verdict}`.
    pub answered: &'static str,
    /// `{lesson}`, `{n}`.
    pub not_answered: &'static str,
    pub correct: &'static str,
    pub wrong: &'static str,
    /// `{n}`.
    pub answer_is: &'static str,
    /// `{choice}`: the first answer, which stays the grade.
    pub already: &'static str,
    /// `{lesson}`.
    pub no_quizzes: &'static str,
    /// `{lesson}`, `{n}`, `{total}`.
    pub no_quiz: &'static str,
    /// `{n}`, `{total}`.
    pub no_choice: &'static str,
}

const EN: QuizText = QuizText {
    heading: "quiz {n} of {total} (lesson {lesson}, {id}):",
    answered: "your first answer: {choice} ({verdict}); it is the grade",
    not_answered: "not answered yet: cudatutor answer {lesson} {n} CHOICE",
    correct: "Correct.",
    wrong: "Not quite.",
    answer_is: "The answer is {n}.",
    already: "Your first answer ({choice}) is the grade: this quiz was already answered, and this answer does not count.",
    no_quizzes: "lesson {lesson} has no quizzes",
    no_quiz: "lesson {lesson} has no quiz {n}: its quizzes are 1 to {total}",
    no_choice: "quiz {n} has choices 1 to {total}",
};

const ZH: QuizText = QuizText {
    heading: "小测验 {n} / {total}（第 {lesson} 课，{id}）：",
    answered: "你的第一次作答：{choice}（{verdict}）；以此计分",
    not_answered: "尚未作答：cudatutor answer {lesson} {n} 选项",
    correct: "回答正确。",
    wrong: "不太对。",
    answer_is: "正确答案是 {n}。",
    already: "以第一次作答（{choice}）计分：这道小测验已经答过了，这次作答不计分。",
    no_quizzes: "第 {lesson} 课没有小测验",
    no_quiz: "第 {lesson} 课没有小测验 {n}：它的小测验是 1 到 {total}",
    no_choice: "小测验 {n} 的选项是 1 到 {total}",
};

pub(crate) fn quiz_text(lang: Lang) -> &'static QuizText {
    lang.pick(&EN, &ZH)
}

/// `cudatutor quiz LESSON`: every quiz of the lesson (its 1-based `number` among the lessons),
/// with its choices and, once answered, the learner's first answer and the explanation.
pub(crate) fn render_quizzes(
    lesson: &Lesson,
    number: usize,
    progress: &Progress,
    lang: Lang,
) -> String {
    let t = quiz_text(lang);
    if lesson.quizzes.is_empty() {
        return format!(
            "{}\n",
            t.no_quizzes.replace("{lesson}", &number.to_string())
        );
    }
    let mut s = String::new();
    for n in 1..=lesson.quizzes.len() {
        if n > 1 {
            s.push('\n');
        }
        s.push_str(&render_one(lesson, number, n, progress, lang));
    }
    s
}

/// One quiz: heading, question, choices (`›` marks the first answer), then the grade and the
/// explanation when answered, else how to answer.
fn render_one(lesson: &Lesson, number: usize, n: usize, progress: &Progress, lang: Lang) -> String {
    let t = quiz_text(lang);
    let Some(quiz) = lesson.quizzes.get(n - 1) else {
        return String::new();
    };
    let answered = progress.quizzes.get(&quiz_key(&lesson.id, n));
    let mut s = t
        .heading
        .replace("{n}", &n.to_string())
        .replace("{total}", &lesson.quizzes.len().to_string())
        .replace("{lesson}", &number.to_string())
        .replace("{id}", &lesson.id);
    s.push('\n');
    s.push_str(quiz.question.trim());
    s.push('\n');
    for (i, choice) in quiz.choices.iter().enumerate() {
        let marker = if answered.is_some_and(|a| a.answer == i + 1) {
            '›'
        } else {
            ' '
        };
        s.push_str(&format!("{marker} {}) {}\n", i + 1, choice.trim()));
    }
    match answered {
        Some(a) => {
            let verdict = if a.correct { t.correct } else { t.wrong };
            let verdict = verdict.trim_end_matches(['.', '。']);
            s.push_str(
                &t.answered
                    .replace("{choice}", &a.answer.to_string())
                    .replace("{verdict}", verdict),
            );
            s.push('\n');
            s.push_str(&explanation(quiz.answer, &quiz.explain, t));
        }
        None => {
            s.push_str(
                &t.not_answered
                    .replace("{lesson}", &number.to_string())
                    .replace("{n}", &n.to_string()),
            );
            s.push('\n');
        }
    }
    s
}

fn explanation(answer: usize, explain: &str, t: &QuizText) -> String {
    let mut s = t.answer_is.replace("{n}", &answer.to_string());
    if !explain.trim().is_empty() {
        // No space after a full-width full stop.
        if !s.ends_with('。') {
            s.push(' ');
        }
        s.push_str(explain.trim());
    }
    s.push('\n');
    s
}

/// `cudatutor answer LESSON QUIZ CHOICE`: answers quiz `n` of `lesson` (its 1-based `number`)
/// with `choice` in `progress`. The first answer is the grade; a later one changes nothing and
/// is told so. Returns the text to print, or Err with the message when there is no such quiz
/// or choice.
pub(crate) fn answer(
    progress: &mut Progress,
    lesson: &Lesson,
    number: usize,
    n: usize,
    choice: usize,
    lang: Lang,
) -> Result<String, String> {
    let t = quiz_text(lang);
    let total = lesson.quizzes.len();
    if total == 0 {
        return Err(t.no_quizzes.replace("{lesson}", &number.to_string()));
    }
    let Some(quiz) = n.checked_sub(1).and_then(|i| lesson.quizzes.get(i)) else {
        return Err(t
            .no_quiz
            .replace("{lesson}", &number.to_string())
            .replace("{n}", &n.to_string())
            .replace("{total}", &total.to_string()));
    };
    let Some(outcome) = progress.answer_quiz(lesson, n, choice) else {
        return Err(t
            .no_choice
            .replace("{n}", &n.to_string())
            .replace("{total}", &quiz.choices.len().to_string()));
    };
    let mut s = String::new();
    if outcome.first_answer {
        s.push_str(if outcome.correct { t.correct } else { t.wrong });
        s.push('\n');
    } else {
        let first = progress
            .quizzes
            .get(&quiz_key(&lesson.id, n))
            .map_or(choice, |a| a.answer);
        s.push_str(&t.already.replace("{choice}", &first.to_string()));
        s.push('\n');
    }
    s.push_str(&explanation(outcome.right_choice, &quiz.explain, t));
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::{Catalog, Lang};

    #[test]
    fn the_first_answer_is_the_grade() {
        let catalog = Catalog::builtin(Lang::En).unwrap();
        let (number, lesson) = catalog
            .lessons
            .iter()
            .enumerate()
            .find(|(_, l)| !l.quizzes.is_empty())
            .map(|(i, l)| (i + 1, l))
            .unwrap();
        let quiz = &lesson.quizzes[0];
        let wrong = if quiz.answer == 1 { 2 } else { 1 };
        let mut p = Progress::default();
        let said = answer(&mut p, lesson, number, 1, wrong, Lang::En).unwrap();
        assert!(said.starts_with("Not quite."), "{said}");
        assert!(
            said.contains(&format!("The answer is {}.", quiz.answer)),
            "{said}"
        );
        let said = answer(&mut p, lesson, number, 1, quiz.answer, Lang::En).unwrap();
        assert!(said.contains("does not count"), "{said}");
        let key = quiz_key(&lesson.id, 1);
        assert_eq!(p.quizzes[&key].answer, wrong);
        assert!(!p.quizzes[&key].correct);
        assert!(answer(&mut p, lesson, number, 99, 1, Lang::En).is_err());
        assert!(answer(&mut p, lesson, number, 1, 99, Lang::En).is_err());
        assert!(answer(&mut p, lesson, number, 1, 0, Lang::En).is_err());
    }
}

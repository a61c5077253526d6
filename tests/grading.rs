//! Grading that the graded code cannot fool, and checks that speak the learner's language:
//! monkeypatching learner code fails, a SyntaxError gives one result, a check that raises names
//! the learner's line, passed checks carry their message, predictions hide the answer, right
//! fixes the old checks rejected pass, an internal error is reported as one.

use cudatutor::classroom::grade::{grade_report, run_graded};
use cudatutor::lesson::{Catalog, Exercise, Lang, Lesson};
use cudatutor::run::{CheckResult, RunOptions, RunReport};

/// The built-in lesson and exercise with this id, in `lang`.
fn exercise(lang: Lang, id: &str) -> (Lesson, Exercise) {
    let catalog = Catalog::builtin(lang).unwrap();
    for lesson in catalog.lessons {
        if let Some(ex) = lesson.exercises.iter().find(|e| e.id == id).cloned() {
            return (lesson, ex);
        }
    }
    panic!("no exercise {id}");
}

/// Runs `code` as the English built-in exercise `id`'s code, against its checks.
fn grade(id: &str, code: &str) -> RunReport {
    grade_in(Lang::En, id, code)
}

fn grade_in(lang: Lang, id: &str, code: &str) -> RunReport {
    let (lesson, ex) = exercise(lang, id);
    run_graded(&lesson, &ex, code, &RunOptions::default())
}

/// `grade`, which must fail the checks (else the test fails, showing their messages).
fn failed_grade(id: &str, code: &str) -> RunReport {
    let r = grade(id, code);
    assert!(!r.checks_passed(), "{:?}", messages(&r));
    r
}

fn messages(r: &RunReport) -> Vec<(bool, String)> {
    r.checks
        .iter()
        .map(|c: &CheckResult| (c.passed, c.message.clone().unwrap_or_default()))
        .collect()
}

/// Asserts that the report holds one result, whose message starts with `start`.
fn assert_one_result_starting(r: &RunReport, start: &str) {
    let all = messages(r);
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(all[0].1.starts_with(start), "{all:?}");
}

/// `grade` of built-in exercise `id`'s solution with `from` replaced by `to`.
fn graded_with(id: &str, from: &str, to: &str) -> RunReport {
    grade(id, &solution_with(id, from, to))
}

/// `failed_grade` of built-in exercise `id`'s solution with `from` replaced by `to`.
fn failed_with(id: &str, from: &str, to: &str) -> RunReport {
    failed_grade(id, &solution_with(id, from, to))
}

/// The solution of built-in exercise `id` with `from` replaced by `to` (which must occur).
fn solution_with(id: &str, from: &str, to: &str) -> String {
    let (_, ex) = exercise(Lang::En, id);
    let solution = ex.solution.unwrap();
    assert!(
        solution.contains(from),
        "{id}: {from:?} is not in the solution"
    );
    solution.replacen(from, to, 1)
}

#[test]
fn replaced_counters_do_not_fool_the_checks() {
    // The learner's code replaces the allocator counters so that its (wrong) predictions look
    // right: its own print shows the fake values, the checks read the real ones.
    let code = "import torch\n\nx = torch.randn(10)\ny = torch.randn(10, device='cuda')\na = torch.zeros(100, device='cuda')\nb = torch.zeros(200, device='cuda')\n\npredicted_allocated = 1240\npredicted_reserved = 1240\ntorch.cuda.memory_allocated = lambda *args: 1240\ntorch.cuda.memory_reserved = lambda *args: 1240\nprint('allocated:', torch.cuda.memory_allocated())\n";
    let r = grade("l2-counters", code);
    assert!(
        r.stdout.contains("allocated: 1240"),
        "the patch worked in the learner's run: {}",
        r.stdout
    );
    assert!(!r.checks_passed(), "{:?}", messages(&r));
    let failed: Vec<_> = messages(&r).into_iter().filter(|m| !m.0).collect();
    assert_eq!(
        failed.len(),
        3,
        "the code changed (the counters replaced) and both predictions are wrong (the tensors themselves are as asked): {failed:?}"
    );
    assert!(
        failed[0].1.starts_with("change only the values"),
        "{failed:?}"
    );
}

#[test]
fn an_object_equal_to_everything_is_no_answer() {
    failed_with(
        "l1-where-reported",
        "origin = 9",
        "class Anything:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n        return False\norigin = Anything()",
    );
    // The same object in a counter prediction.
    let r = graded_with(
        "l4-peak",
        "predicted_peak = 8 * 1024**2",
        "class Anything:\n    def __eq__(self, other):\n        return True\npredicted_peak = Anything()",
    );
    assert!(!r.checks_passed());
}

#[test]
fn shadowed_builtins_and_helpers_do_not_reach_the_checks() {
    // Globals named like builtins and check helpers, all answering "yes".
    let code = "import torch\n\ndef same(a, b):\n    return True\ndef close(*args, **kw):\n    return True\ndef on_gpu(*args):\n    return True\ndef len(x):\n    return 6\ndef error_type():\n    return None\ndef ran_on_gpu(*args):\n    return 6\nlosses = [0.0]\nmodel = torch.nn.Linear(6, 3).to('cuda')\n";
    let r = failed_grade("l5-loader-devices", code);
    assert!(
        r.checks.iter().filter(|c| !c.passed).count() >= 3,
        "{:?}",
        messages(&r)
    );
}

#[test]
fn patched_torch_functions_and_tensor_methods_are_restored_for_the_checks() {
    // y_gpu and y_cpu typed in, with tolist() and the op counter faked on the class and module.
    let code = "import torch\n\nx = torch.tensor([1.0, 2.0, 3.0])\nw = torch.tensor([0.5, 0.5, 0.5], device='cuda')\ny_gpu = torch.zeros(3, device='cuda')\ny_cpu = torch.zeros(3)\ntorch.Tensor.tolist = lambda self: [1.5, 2.5, 3.5]\ntorch.is_tensor = lambda t: True\nimport torch.nn.functional as F\nF.linear = lambda *a, **k: None\n";
    let r = failed_grade("l2-two-fixes", code);
    let y_gpu = &r.checks[2];
    assert!(!y_gpu.passed, "y_gpu holds zeros: {:?}", messages(&r));
}

#[test]
fn a_learner_function_that_patches_torch_while_a_check_calls_it_is_undone() {
    // is_on_gpu, called by the first check, replaces torch.device so that the prediction check
    // would compare against its fake; the modules are put back before every check statement.
    let code = "import torch\n\ndef is_on_gpu(t):\n    torch.device = lambda *a: 0\n    return t.device.type == 'cuda'\n\nprediction = True\n";
    let r = grade("l2-device-equality", code);
    let last = r.checks.last().unwrap();
    assert!(!last.passed, "{:?}", messages(&r));
    assert!(last.error.is_none(), "the real torch.device ran: {last:?}");
}

#[test]
fn a_syntax_error_gives_one_result_not_a_cascade() {
    let broken = "import torch\n\nnum_classes = 5\ndef make_labels(batch)\n    return torch.randint(0, num_classes, (batch,))\n";
    let r = grade("l1-intermittent", broken);
    assert_eq!(r.error.as_ref().unwrap().type_name, "SyntaxError");
    assert_eq!(r.checks.len(), 1, "{:?}", messages(&r));
    let only = &r.checks[0];
    assert!(!only.passed);
    assert_eq!(only.line, 0);
    assert_eq!(
        only.message.as_deref(),
        Some("fix the SyntaxError first: the checks run once the code parses")
    );
    let r = grade_in(Lang::Zh, "l1-intermittent", broken);
    assert_one_result_starting(&r, "先修正 SyntaxError");
    let indented = "import torch\n  x = 1\n";
    let r = grade("l2-counters", indented);
    assert_one_result_starting(&r, "fix the IndentationError first");
}

#[test]
fn a_check_that_raises_names_the_learners_line_or_variable() {
    let r = graded_with(
        "l4-helpers",
        "    lo, hi = labels.min().item(), labels.max().item()\n",
        "    lo, hi = labels.min().item(), labels.max().item()\n    if len(labels) == 2:\n        raise TypeError('two labels')\n",
    );
    let raised: Vec<&CheckResult> = r.checks.iter().filter(|c| c.error.is_some()).collect();
    assert!(!raised.is_empty(), "{:?}", messages(&r));
    for c in &raised {
        let error = c.error.as_deref().unwrap();
        assert_eq!(error, "your line 12 raised TypeError: two labels", "{c:?}");
        let message = c.message.as_deref().unwrap();
        assert!(
            message.ends_with(" — your line 12 raised TypeError: two labels"),
            "{message}"
        );
        assert!(
            !message.contains("check.py") && !message.contains("line 4"),
            "{message}"
        );
    }
    // A variable the code never defines is named as such.
    let r = grade(
        "l2-two-fixes",
        "import torch\nx = torch.tensor([1.0, 2.0, 3.0])\n",
    );
    let y_gpu = &r.checks[2];
    assert_eq!(
        y_gpu.error.as_deref(),
        Some("your code does not define `y_gpu`"),
        "{y_gpu:?}"
    );
    // In Chinese too.
    let r = grade_in(
        Lang::Zh,
        "l2-two-fixes",
        "import torch\nx = torch.tensor([1.0, 2.0, 3.0])\n",
    );
    assert_eq!(
        r.checks[2].error.as_deref(),
        Some("你的代码没有定义 `y_gpu`")
    );
}

#[test]
fn every_result_carries_its_own_message_once() {
    let (_, ex) = exercise(Lang::En, "l3-one-based");
    let check = ex.check.clone().unwrap();
    let solved = grade("l3-one-based", ex.solution.as_deref().unwrap());
    assert!(solved.checks_passed());
    for c in &solved.checks {
        let message = c.message.as_deref().unwrap();
        assert!(
            check.contains(&format!("\"{message}\"")),
            "a passed check shows the assert's message: {message}"
        );
        assert!(c.error.is_none());
    }
    let started = grade("l3-one-based", &ex.start_code);
    let mut seen = std::collections::HashSet::new();
    for c in &started.checks {
        let message = c.message.clone().unwrap();
        assert!(seen.insert(message.clone()), "shown twice: {message}");
        assert!(
            !message.starts_with("assert") && !message.contains(".tolist() =="),
            "never the check's source: {message}"
        );
    }
    // The check block's own source never leaks into a message, expected values included.
    let counters = grade(
        "l2-counters",
        &exercise(Lang::En, "l2-counters").1.start_code,
    );
    for c in &counters.checks {
        assert!(!c.message.as_deref().unwrap().contains("2048"), "{c:?}");
    }
}

#[test]
fn l1_intermittent_says_what_is_really_wrong_with_the_starting_code() {
    let (_, ex) = exercise(Lang::En, "l1-intermittent");
    let r = grade("l1-intermittent", &ex.start_code);
    let by_message = |m: &str| {
        r.checks
            .iter()
            .find(|c| c.message.as_deref() == Some(m))
            .unwrap_or_else(|| panic!("{m}: {:?}", messages(&r)))
    };
    assert!(
        by_message("every class 0..4 should still appear in all_labels").passed,
        "all of 0..4 do appear (and 5 too)"
    );
    assert!(!by_message("all_labels should hold only labels in 0..4").passed);
    assert!(!by_message("no batch should hold a label >= num_classes").passed);
}

#[test]
fn predictions_hide_the_answer_until_each_is_made() {
    let (_, ex) = exercise(Lang::En, "l1-where-reported");
    assert_eq!(ex.predict, ["origin", "reported"]);
    let start = grade("l1-where-reported", &ex.start_code);
    assert!(
        start.prediction_pending,
        "the starting code predicts nothing"
    );
    let one = ex.start_code.replacen("origin = 0", "origin = 12", 1);
    assert!(
        grade("l1-where-reported", &one).prediction_pending,
        "reported is still 0"
    );
    let both = one.replacen("reported = 0", "reported = 12", 1);
    let r = grade("l1-where-reported", &both);
    assert!(
        !r.prediction_pending,
        "a wrong prediction is still a prediction"
    );
    assert!(!r.checks_passed());
    let gone =
        ex.start_code
            .replacen("origin = 0", "pass", 1)
            .replacen("reported = 0", "reported = 3", 1);
    assert!(
        grade("l1-where-reported", &gone).prediction_pending,
        "an undefined prediction is pending"
    );
    assert!(!grade("l1-where-reported", ex.solution.as_deref().unwrap()).prediction_pending);
    // Code that does not parse hides nothing: the SyntaxError is what the learner must see.
    let unparsed = ex.start_code.replacen("origin = 0", "origin = = 0", 1);
    let r = grade("l1-where-reported", &unparsed);
    assert_eq!(r.error.as_ref().unwrap().type_name, "SyntaxError");
    assert!(!r.prediction_pending);
    // An exercise without predict= never hides anything.
    let (_, plain) = exercise(Lang::En, "l1-sticky");
    assert!(!grade("l1-sticky", &plain.start_code).prediction_pending);
}

/// Right fixes the old checks rejected or might reject: `(exercise, from, to)` edits of its
/// solution, each of which must pass every check.
const RIGHT_FIXES: &[(&str, &str, &str)] = &[
    // The dict branch of to_device written with zip instead of a comprehension.
    (
        "l5-loader-devices",
        "        return {key: to_device(value, device) for key, value in batch.items()}",
        "        return dict(zip(batch.keys(), [to_device(v, device) for v in batch.values()]))",
    ),
    (
        "l2-model-data",
        "x = torch.randn(3, 4).to(device)\nout = model(x)",
        "x = torch.randn(3, 4)\nout = model(x.to(device))",
    ),
    // -1 mapped to -100; validation with any(); the shift written as += -1.
    (
        "l3-ignore-index",
        "return F.cross_entropy(logits, labels, ignore_index=-1)",
        "return F.cross_entropy(logits, torch.where(labels == -1, -100, labels))",
    ),
    (
        "l3-ignore-index",
        "return F.cross_entropy(logits, labels, ignore_index=-1)",
        "keep = labels != -1\n    return F.cross_entropy(logits[keep], labels[keep])",
    ),
    (
        "l1-sticky",
        "if labels.min().item() < 0 or labels.max().item() >= logits.shape[1]:",
        "if any(v < 0 or v >= logits.shape[1] for v in labels.tolist()):",
    ),
    (
        "l3-one-based",
        "    return torch.tensor(csv_labels, device='cuda') - 1   # the file counts from 1",
        "    t = torch.tensor(csv_labels, device='cuda')\n    t += -1\n    return t",
    ),
    // The CUDA tools lessons recommend are there for the checks too (issue: torch.isinf and
    // torch.cuda.Event raised AttributeError while grading).
    (
        "l6-nan",
        "    return torch.isfinite(t).all().item()",
        "    return not (torch.isinf(t) | torch.isnan(t)).any().item()",
    ),
    (
        "l6-nonblocking",
        "torch.cuda.synchronize()                     # wait until the copy has landed",
        "landed = torch.cuda.Event()\nlanded.record()\nlanded.synchronize()",
    ),
];

#[test]
fn right_fixes_the_old_checks_rejected_or_might_reject_pass() {
    for &(id, from, to) in RIGHT_FIXES {
        let r = graded_with(id, from, to);
        assert!(r.checks_passed(), "{id} with {to:?}: {:?}", messages(&r));
    }
}

/// The intermediate the goal names is checked too: made on the CPU and copied, it fails.
#[test]
fn a_goal_intermediate_made_on_the_cpu_and_copied_fails() {
    let r = failed_with(
        "l2-model-data",
        "offset = torch.ones_like(out)",
        "offset = torch.ones(3, 2).to(device)",
    );
    assert!(
        messages(&r)
            .iter()
            .any(|(ok, m)| !ok
                && m.starts_with("offset should be all ones, created on the GPU itself")),
        "{:?}",
        messages(&r)
    );
}

#[test]
fn a_computed_prediction_is_one_clear_result_not_a_pass() {
    let r = failed_with(
        "l2-counters",
        "predicted_allocated = 512 + 512 + 1024   # each rounded up to 512 bytes",
        "predicted_allocated = torch.cuda.memory_allocated()",
    );
    assert_eq!(r.checks.len(), 1, "{:?}", messages(&r));
    assert_eq!(r.checks[0].line, 0);
    let m = r.checks[0].message.clone().unwrap();
    assert!(
        m.starts_with("`predicted_allocated` should be a prediction you write down")
            && m.contains("(line 9)"),
        "{m}"
    );
    // A device read off the tensor is no prediction either, in Chinese too.
    let (_, ex) = exercise(Lang::Zh, "l5-current-device");
    let code = ex
        .solution
        .unwrap()
        .replacen("where_b = 'cuda:1'", "where_b = str(b.device)", 1);
    let r = grade_in(Lang::Zh, "l5-current-device", &code);
    assert_one_result_starting(&r, "`where_b` 应当是你事先写下的预测值");
    // Arithmetic on written numbers is still a prediction.
    assert!(
        graded_with(
            "l2-counters",
            "predicted_allocated = 512 + 512 + 1024   # each rounded up to 512 bytes",
            "predicted_allocated = 4 * 512",
        )
        .checks_passed()
    );
}

#[test]
fn predictions_are_judged_against_the_code_as_given() {
    // Launch blocking would make the question trivial: origin and reported are then the same
    // line, and right for that changed code.
    let (_, ex) = exercise(Lang::En, "l1-where-reported");
    let blocking = format!(
        "import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n{}",
        ex.solution.as_deref().unwrap()
    )
    .replacen("origin = 9 ", "origin = 11", 1)
    .replacen("reported = 12", "reported = 11", 1);
    let r = grade("l1-where-reported", &blocking);
    assert_eq!(r.error.as_ref().unwrap().line, Some(11), "{:?}", r.error);
    assert!(!r.checks_passed());
    assert!(
        !r.checks[0].passed
            && r.checks[0]
                .message
                .as_deref()
                .unwrap()
                .starts_with("change only the values of origin and reported"),
        "{:?}",
        messages(&r)
    );
    // Comments and spacing are the learner's to change.
    let tidied =
        ex.solution
            .as_deref()
            .unwrap()
            .replacen("scale = 2.0", "scale = 2.0   # my note", 1);
    assert!(grade("l1-where-reported", &tidied).checks_passed());
}

#[test]
fn an_internal_error_is_graded_as_an_error_of_its_backend() {
    let (lesson, ex) = exercise(Lang::En, "l1-sticky");
    let report = cudatutor::run::internal_error_report(
        "internal error: the run panicked (please report this script)",
        "sim",
    );
    let g = grade_report(1, &lesson, &ex, &report, "sim");
    assert!(g.internal_error);
    assert_eq!(g.status, cudatutor::classroom::GradeStatus::Failed);
    assert_eq!(g.backend, "sim");
    assert_eq!(
        g.error.as_deref(),
        Some(
            "internal error on the sim backend: internal error: the run panicked (please report this script)"
        )
    );
    assert_eq!(g.first_failure, None, "never 'the exercise has no checks'");
    let json = cudatutor::classroom::grade::render_json_lines(&[g]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["internal_error"], true);
    assert_eq!(v["backend"], "sim");
    // A worker that never answered names the backend it was asked for.
    let mut silent = report.clone();
    silent.backend.clear();
    assert_eq!(
        grade_report(1, &lesson, &ex, &silent, "cuda").backend,
        "cuda"
    );
}

/// For authors: `LESSON=lessons/en/01-cuda-errors.md cargo test --test grading dump -- \
/// --ignored --nocapture` prints every check result of the starting code, the solution and
/// each wrong block of every exercise in that file (EXERCISE=id narrows it).
#[test]
#[ignore]
fn dump() {
    use cudatutor::classroom::grade::run_graded;
    let path = std::env::var("LESSON").expect("LESSON=path");
    let only = std::env::var("EXERCISE").ok();
    let text = std::fs::read_to_string(&path).unwrap();
    let lesson = cudatutor::lesson::parse_lesson(&path, &text).unwrap();
    let opts = RunOptions::default();
    for ex in &lesson.exercises {
        if only.as_ref().is_some_and(|o| *o != ex.id) {
            continue;
        }
        let mut codes = vec![
            ("start".to_string(), ex.start_code.clone()),
            (
                "solution".to_string(),
                ex.solution.clone().unwrap_or_default(),
            ),
        ];
        for w in &ex.wrongs {
            codes.push((format!("wrong: {}", w.reason), w.code.clone()));
        }
        for (what, code) in codes {
            let r = run_graded(&lesson, ex, &code, &opts);
            println!(
                "== {} [{what}] passed={} pending={} error={:?}",
                ex.id,
                r.checks_passed(),
                r.prediction_pending,
                r.error.as_ref().map(|e| format!(
                    "{}: {} (line {:?})",
                    e.type_name,
                    e.message.lines().next().unwrap_or(""),
                    e.line
                ))
            );
            for c in &r.checks {
                println!(
                    "   {} {}",
                    if c.passed { "ok  " } else { "FAIL" },
                    c.message.clone().unwrap_or_default()
                );
            }
        }
    }
}

/// A fix whose new line raises an error the exercise does not expect (an API that does not
/// exist, a name never defined): the first failed check says what raised and where, and that
/// this is not about the goal, rather than blaming the goal ("launch blocking should be on").
/// The error the starting code raises as given is the goal, and is not called unexpected.
#[test]
fn an_error_the_exercise_does_not_expect_is_said_first_with_its_place() {
    let unexpected = |lang: Lang, id: &str, after: &str, line: &str| {
        let (_, ex) = exercise(lang, id);
        assert!(ex.start_code.contains(after), "{id}: {after:?}");
        let code = ex
            .start_code
            .replacen(after, &format!("{after}{line}\n"), 1);
        let at = code[..code.find(line).unwrap()].matches('\n').count() + 1;
        (grade_in(lang, id, &code), at)
    };
    for (id, line, raised) in [
        (
            "l1-launch-blocking",
            "torch.cuda.set_blocking_please(True)",
            "AttributeError",
        ),
        ("l2-two-fixes", "print(undefined_helper)", "NameError"),
        (
            "l3-one-based",
            "torch.cuda.set_blocking_please(True)",
            "AttributeError",
        ),
    ] {
        let (r, at) = unexpected(Lang::En, id, "import torch\n", line);
        let first = r.checks.iter().find(|c| !c.passed).expect("a failed check");
        let message = first.message.as_deref().unwrap();
        assert!(
            message.starts_with(&format!("exercise.py:{at} raised {raised}: ")),
            "{id}: {message}"
        );
        assert!(
            message
                .contains(", which this exercise does not expect: this is not about the goal yet"),
            "{id}: {message}"
        );
        assert!(
            message.contains("set_blocking_please") || message.contains("undefined_helper"),
            "{message}"
        );
        assert!(message.contains("(this check said: "), "{message}");
        let later: Vec<_> = r.checks.iter().filter(|c| !c.passed).skip(1).collect();
        assert!(
            later.iter().all(|c| !c
                .message
                .as_deref()
                .unwrap_or("")
                .contains("not about the goal")),
            "said once, first: {:?}",
            messages(&r)
        );
    }
    // In Chinese too.
    let (r, at) = unexpected(
        Lang::Zh,
        "l1-launch-blocking",
        "import torch\n",
        "torch.cuda.set_blocking_please(True)",
    );
    let first = r.checks.iter().find(|c| !c.passed).unwrap();
    let message = first.message.as_deref().unwrap();
    assert!(
        message.starts_with(&format!("exercise.py:{at} 抛出了 AttributeError")),
        "{message}"
    );
    assert!(message.contains("与目标无关"), "{message}");
    // The starting code's own error (the device-side assert of l3-one-based) is the goal.
    let (_, ex) = exercise(Lang::En, "l3-one-based");
    let r = grade("l3-one-based", &ex.start_code);
    assert!(r.error.is_some(), "the starting code raises");
    assert!(
        r.checks.iter().all(|c| !c
            .message
            .as_deref()
            .unwrap_or("")
            .contains("not about the goal")),
        "{:?}",
        messages(&r)
    );
}

//! Checks run on a clean world: whatever the graded code patches (torch functions, tensor
//! methods, the allocator counters, names like the check helpers or builtins) is undone before
//! every check statement and around every call a check makes into the learner's code, even
//! inside one expression. Each hostile submission below fools its own run (it prints the
//! patch at work) and fails its check; an honest submission passes the same check, so no check
//! here is one that cannot pass. And a submission that changes nothing scores 0 on every
//! built-in exercise while the solution passes.

use cudatutor::classroom::grade::{GradeStatus, Source, grade_catalog, grade_submission};
use cudatutor::lesson::{Catalog, Lang};
use cudatutor::progress::{ExerciseState, Progress};
use cudatutor::run::{RunOptions, RunReport, run_exercise};

fn run(code: &str, check: &str) -> RunReport {
    run_exercise(code, Some(check), &RunOptions::default())
}

fn results(r: &RunReport) -> Vec<(bool, String, Option<String>)> {
    r.checks
        .iter()
        .map(|c| {
            (
                c.passed,
                c.message.clone().unwrap_or_default(),
                c.error.clone(),
            )
        })
        .collect()
}

/// `hostile` fools its own run (its stdout holds `fooled`: the patches that work on this
/// engine, `torch.equal` and the like, work there), fails every check of `check`, and `honest`
/// passes them all.
fn fools_itself_not_the_check(hostile: &str, honest: &str, check: &str, fooled: &str) {
    let r = run(hostile, check);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(
        r.stdout.contains(fooled),
        "the patch works in the learner's own run: {:?}",
        r.stdout
    );
    assert!(!r.checks.is_empty());
    for c in &r.checks {
        assert!(!c.passed, "a patched world passed: {:?}", results(&r));
    }
    let ok = run(honest, check);
    assert!(
        ok.checks_passed(),
        "the honest code passes: {:?}",
        results(&ok)
    );
}

#[test]
fn patched_torch_comparisons_and_tensor_methods_do_not_reach_the_checks() {
    let patches = "torch.equal = lambda a, b: True\ntorch.allclose = lambda *a, **k: True\ntorch.Tensor.__eq__ = lambda self, other: torch.ones(self.shape, dtype=torch.bool)\ntorch.Tensor.allclose = lambda self, *a, **k: True\ntorch.Tensor.tolist = lambda self: [0.0, 0.0]\n";
    let hostile = format!(
        "import torch\nx = torch.ones(2)\n{patches}print('fooled', torch.equal(x, torch.zeros(2)), torch.allclose(x, torch.zeros(2)))\n"
    );
    let honest = "import torch\nx = torch.zeros(2)\nprint('fooled')\n";
    let check = "assert torch.equal(x, torch.zeros(2)), 'x is zeros'\nassert torch.allclose(x, torch.zeros(2)), 'x is close to zeros'\nassert bool((x == torch.zeros(2)).all()), 'x equals zeros'\nassert x.allclose(torch.zeros(2)), 'x.allclose(zeros)'\nassert same(x.tolist(), [0.0, 0.0]), 'x holds zeros'\n";
    fools_itself_not_the_check(&hostile, honest, check, "fooled True True");
}

#[test]
fn a_replaced_allocator_counter_and_functional_do_not_reach_the_checks() {
    // The counter's patch would pass the first check; F.relu's would fail the second: both
    // checks see the real functions.
    let hostile = "import torch\nimport torch.nn.functional as F\ny = torch.zeros(1000, device='cuda')\ntorch.cuda.memory_allocated = lambda *a: 0\nF.relu = lambda t, *a, **k: torch.zeros_like(t)\nprint('fooled', torch.cuda.memory_allocated(), F.relu(torch.ones(2)).sum().item())\n";
    let check = "assert torch.cuda.memory_allocated() == 0, 'nothing left on the GPU'\nassert same(F.relu(torch.tensor([-1.0, 2.0])).tolist(), [0.0, 2.0]), 'relu keeps 2.0'\n";
    let r = run(hostile, check);
    assert!(r.stdout.contains("fooled 0 0.0"), "{:?}", r.stdout);
    assert!(!r.checks[0].passed, "{:?}", results(&r));
    assert!(r.checks[1].passed, "the real relu: {:?}", results(&r));
    let ok = run("import torch\n", check);
    assert!(ok.checks_passed(), "{:?}", results(&ok));
}

#[test]
fn a_learner_call_inside_a_check_expression_sees_its_patches_undone_when_it_returns() {
    // make() patches Tensor.allclose and torch.equal, and the check uses both after the call
    // returns, in the same expression.
    let hostile = "import torch\ndef make():\n    torch.Tensor.allclose = lambda self, *a, **k: True\n    torch.equal = lambda a, b: True\n    return torch.ones(2)\nprint('fooled', make() is not None and torch.equal(make(), torch.zeros(2)))\n";
    let honest = "import torch\ndef make():\n    return torch.zeros(2)\nprint('fooled')\n";
    let check = "assert make().allclose(torch.zeros(2)), 'make() gives zeros'\nassert make() is not None and torch.equal(make(), torch.zeros(2)), 'make() equals zeros'\n";
    fools_itself_not_the_check(hostile, honest, check, "fooled True");
}

#[test]
fn a_checks_own_patch_reaches_the_learners_function_it_calls() {
    // The check pretends there is no GPU while it calls pick(); the learner's pick() then
    // patches is_available itself, which is undone when it returns, and the check's own
    // finally-clause restores the real one.
    let check = "def without_gpu(f):\n    real = torch.cuda.is_available\n    torch.cuda.is_available = lambda: False\n    try:\n        return f()\n    finally:\n        torch.cuda.is_available = real\nassert same(without_gpu(pick), 'cpu'), 'pick() falls back to the CPU'\nassert torch.cuda.is_available(), 'the real is_available is back'\nassert same(pick(), 'cuda'), 'pick() picks the GPU'\n";
    let honest =
        "import torch\ndef pick():\n    return 'cuda' if torch.cuda.is_available() else 'cpu'\n";
    let r = run(honest, check);
    assert!(r.checks_passed(), "{:?}", results(&r));
    let hostile = "import torch\ndef pick():\n    torch.cuda.is_available = lambda: True\n    return 'cuda'\n";
    let r = run(hostile, check);
    assert!(!r.checks[0].passed, "{:?}", results(&r));
    assert!(r.checks[1].passed, "{:?}", results(&r));
}

#[test]
fn patches_from_dunder_methods_generators_and_forward_are_undone_too() {
    // A learner's __eq__, a generator body and an nn.Module's forward, each called by the
    // check, patch torch.equal before the check calls it.
    let hostile = "import torch\nimport torch.nn as nn\nclass Sneaky:\n    def __eq__(self, other):\n        torch.equal = lambda a, b: True\n        return True\n    def __hash__(self):\n        return 1\ndef numbers():\n    torch.equal = lambda a, b: True\n    yield 1\nclass Model(nn.Module):\n    def forward(self, t):\n        torch.equal = lambda a, b: True\n        return t\nsneaky = Sneaky()\nmodel = Model()\nx = torch.ones(2)\nprint('fooled', sneaky == 0 and torch.equal(x, torch.zeros(2)))\n";
    let honest = "import torch\nimport torch.nn as nn\nclass Sneaky:\n    def __eq__(self, other):\n        return True\n    def __hash__(self):\n        return 1\ndef numbers():\n    yield 1\nclass Model(nn.Module):\n    def forward(self, t):\n        return t\nsneaky = Sneaky()\nmodel = Model()\nx = torch.zeros(2)\nprint('fooled')\n";
    let check = "assert sneaky == 0 and torch.equal(x, torch.zeros(2)), 'x is zeros (after ==)'\nassert sum(numbers()) == 1 and torch.equal(x, torch.zeros(2)), 'x is zeros (after a generator)'\nassert model(torch.ones(1)) is not None and torch.equal(x, torch.zeros(2)), 'x is zeros (after forward)'\n";
    fools_itself_not_the_check(hostile, honest, check, "fooled True");
}

#[test]
fn builtins_and_helper_names_the_learner_replaces_stay_the_real_ones() {
    // No `builtins` module to patch (the import fails and is caught); globals named like the
    // builtins and the helpers, and a function that rebinds a helper while a check calls it.
    let hostile = "import torch\ntry:\n    import builtins\n    builtins.len = lambda x: 3\n    builtins.isinstance = lambda *a: True\nexcept ImportError:\n    pass\ndef len(x):\n    return 3\ndef isinstance(*a):\n    return True\nsame = lambda a, b: True\nclose = lambda *a, **k: True\ndef answer():\n    global same\n    same = lambda a, b: True\n    globals()['close'] = lambda *a, **k: True\n    return 2\nxs = [1, 2]\nname = 'two'\nprint('fooled', len(xs), isinstance(name, int), same(1, 2))\n";
    let honest =
        "import torch\ndef answer():\n    return 1\nxs = [1, 2, 3]\nname = 3\nprint('fooled')\n";
    let check = "assert len(xs) == 3, 'three items'\nassert isinstance(name, int), 'name is an int'\nassert same(answer(), 1), 'answer() is 1'\nassert close(answer(), 1.0), 'answer() is close to 1'\n";
    fools_itself_not_the_check(hostile, honest, check, "fooled 3 True True");
}

#[test]
fn an_object_equal_to_everything_and_a_del_that_patches_do_not_pass() {
    let hostile = "import torch\nclass Anything:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n        return False\n    def __hash__(self):\n        return 0\nclass Later:\n    def __del__(self):\n        torch.equal = lambda a, b: True\ndef later():\n    return Later()\nanswer = Anything()\nx = torch.ones(2)\nprint('fooled', answer == 42)\n";
    let honest = "import torch\ndef later():\n    return None\nanswer = 42\nx = torch.zeros(2)\nprint('fooled')\n";
    let check = "assert same(answer, 42), 'answer is 42'\nassert close(answer, 42), 'answer is close to 42'\nassert answer in {42}, 'answer in {42}'\nlater()\nassert torch.equal(x, torch.zeros(2)), 'x is zeros'\n";
    fools_itself_not_the_check(hostile, honest, check, "fooled True");
}

#[test]
fn a_submission_that_changes_nothing_scores_zero_on_every_builtin_exercise() {
    let catalog = Catalog::builtin(Lang::En).unwrap();
    let opts = RunOptions::default();
    let empty = Progress::default();
    let solved = grade_catalog(&catalog, None, &empty, Source::Solution, &opts);
    let started = grade_catalog(&catalog, None, &empty, Source::Start, &opts);
    let mut exercises = 0;
    let mut graded = solved.iter().zip(&started);
    for (no, lesson) in catalog.lessons.iter().enumerate() {
        for ex in &lesson.exercises {
            exercises += 1;
            let (solution, start) = graded.next().unwrap();
            assert_eq!(
                start.status,
                GradeStatus::Failed,
                "{}: the starting code, run, fails its checks",
                ex.id
            );
            assert_eq!(
                solution.status,
                GradeStatus::Passed,
                "{}: the solution passes: {:?}",
                ex.id,
                solution.first_failure
            );
            assert!(solution.score > 0.0, "{}", ex.id);
            let with_blank_edges = format!("\n{}\n\n", ex.start_code.replace('\n', "  \n"));
            for code in [ex.start_code.as_str(), &with_blank_edges, "", "# nothing\n"] {
                let g = grade_submission(no + 1, lesson, ex, code, &opts);
                assert_eq!(g.status, GradeStatus::Failed, "{}: {code:?}", ex.id);
                assert_eq!(g.score, 0.0, "{}: {code:?} scored", ex.id);
                assert!(g.score.is_sign_positive());
                assert_eq!(g.checks.len(), 1, "{}: one result says why", ex.id);
            }
        }
    }
    assert!(exercises >= 20, "{exercises} exercises");
    // Through the saved progress too (what `check` grades), with the starting code changed by
    // one comment it is graded as a run: a comment is no answer, but it is an edit.
    let mut progress = Progress::default();
    for ex in catalog.lessons.iter().flat_map(|l| &l.exercises) {
        progress.exercises.insert(
            ex.id.clone(),
            ExerciseState {
                code: Some(ex.start_code.clone()),
                passed: true,
            },
        );
    }
    let saved = grade_catalog(&catalog, Some(0), &progress, Source::Saved, &opts);
    assert!(
        saved
            .iter()
            .all(|g| g.score == 0.0 && g.status == GradeStatus::Failed)
    );
    let edited = grade_submission(
        1,
        &catalog.lessons[0],
        &catalog.lessons[0].exercises[0],
        &format!("{}\n# tried\n", catalog.lessons[0].exercises[0].start_code),
        &opts,
    );
    assert!(edited.checks.iter().any(|c| c.line > 0), "{edited:?}");
    assert_eq!(edited.status, GradeStatus::Failed);
}

#[test]
fn a_table_torch_reads_changed_in_place_does_not_reach_the_checks() {
    // torch.finfo reads the dict torch._extra._FINFO: the namespace still names the same dict,
    // so putting names back is not enough; its contents are put back too (and a list's).
    let hostile = "import torch\nimport torch._extra as e\ne._FINFO['float32'] = (32, 0.5, 1.0, 1.0, 1.0)\ne._FINFO.pop('float64')\ne._COMPLEX_PART.clear()\neps = 0.5\nprint('fooled', torch.finfo(torch.float32).eps)\n";
    let honest = "import torch\neps = torch.finfo(torch.float32).eps\nprint('fooled')\n";
    let check = "assert eps == torch.finfo(torch.float32).eps, 'eps is float32 epsilon'\nassert eps == 2.0 ** -23 and torch.finfo(torch.float64).bits == 64, 'the tables are whole'\n";
    fools_itself_not_the_check(hostile, honest, check, "fooled 0.5");
}

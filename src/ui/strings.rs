//! Every string the UI shows, in English and Chinese, in one place. What a key does is named
//! here per [`Action`] (a short name for footers, a sentence for the help overlay); which keys
//! those are is in `keys.rs`. The matches are exhaustive, so a new action cannot ship without
//! its words in both languages.

use super::keys::{Action, HelpSection};
use crate::lesson::Lang;
use crate::run::{Backend, BackendLabel};

pub struct Strings {
    pub app_name: &'static str,
    pub exercise: &'static str,
    pub quiz: &'static str,
    pub contents: &'static str,
    pub help_title: &'static str,
    pub lessons_title: &'static str,
    pub search_prompt: &'static str,
    pub no_match: &'static str,
    pub matches: &'static str,
    /// An action's name in footers ("run").
    pub short: fn(Action) -> &'static str,
    /// An action in a sentence, for the help overlay.
    pub long: fn(Action) -> &'static str,
    pub section: fn(HelpSection) -> &'static str,
    pub too_small: &'static str,
    pub first_lesson: &'static str,
    pub last_lesson: &'static str,
    pub blocking_on: &'static str,
    pub blocking_off: &'static str,
    /// `{id}` is the exercise.
    pub confirm_reset: &'static str,
    pub confirm_restore: &'static str,
    pub confirm_solution: &'static str,
    pub confirm_quit_running: &'static str,
    /// `{why}` is the save error.
    pub confirm_quit_unsaved: &'static str,
    pub editing: &'static str,
    pub running: &'static str,
    pub cancelling: &'static str,
    pub cancelled: &'static str,
    /// `{secs}` is the limit.
    pub run_timed_out: &'static str,
    pub run_abandoned: &'static str,
    pub run_in_progress: &'static str,
    pub run_lost: &'static str,
    pub run_internal_error: &'static str,
    pub save_before_run_failed: &'static str,
    pub not_run: &'static str,
    pub hint: &'static str,
    pub no_more_hints: &'static str,
    pub no_solution: &'static str,
    pub solution_title: &'static str,
    pub reset_done: &'static str,
    pub restore_done: &'static str,
    pub nothing_to_restore: &'static str,
    pub esc_hint: &'static str,
    pub interrupt_hint: &'static str,
    pub pane_output: &'static str,
    pub pane_memory: &'static str,
    pub pane_timeline: &'static str,
    pub pane_checks: &'static str,
    pub no_output: &'static str,
    /// `{n}`: lines above what the pane shows.
    pub earlier_lines: &'static str,
    pub reported_here: &'static str,
    pub launched_here: &'static str,
    pub allocated: &'static str,
    pub reserved: &'static str,
    pub peak: &'static str,
    pub host: &'static str,
    pub device: &'static str,
    pub line: &'static str,
    pub modelled: &'static str,
    pub measured: &'static str,
    /// The timeline's legend, one entry per glyph.
    pub legend_host: &'static str,
    pub legend_wait: &'static str,
    pub legend_kernel: &'static str,
    pub legend_failed: &'static str,
    /// `{line}` `{op}` of the failing kernel, `{rline}` `{rop}` of the call that reported it,
    /// `{gap}` the time between.
    pub explain_async: &'static str,
    pub explain_blocking: &'static str,
    /// `{n}` marks whose line labels did not fit.
    pub unlabelled: &'static str,
    pub no_timeline: &'static str,
    pub no_checks: &'static str,
    pub syntax_first: &'static str,
    /// A passing check without a message of its own: `{n}` is its number.
    pub check_n: &'static str,
    pub checks_passed: &'static str,
    pub checks_failed: &'static str,
    /// `{names}`: the variables to set.
    pub predict_first: &'static str,
    pub stale_run: &'static str,
    pub quiz_correct: &'static str,
    pub quiz_wrong: &'static str,
    pub quiz_answer_is: &'static str,
    pub quiz_already: &'static str,
    pub save_failed: &'static str,
    /// Why work cannot be saved when there is no data folder.
    pub no_data_folder: &'static str,
    pub copied: &'static str,
    /// The backend label's words: "sim", the simulated device's name.
    pub sim: &'static str,
    pub sim_device: &'static str,
    /// The comparison overlay's title.
    pub compare_title: &'static str,
    /// The footer and card while `D` runs: both runs, the PyTorch one unsandboxed.
    pub comparing: &'static str,
    /// `{why}`: the outside editor could not run or failed; nothing was read back.
    pub editor_failed: &'static str,
    /// After the outside editor: `{path}` was read back.
    pub edited_outside: &'static str,
    pub edited_outside_unchanged: &'static str,
    /// The `!` prompt's title, and its text before anything is pasted.
    pub explain_prompt_title: &'static str,
    pub explain_prompt_help: &'static str,
    /// The explanation box's title.
    pub explain_title: &'static str,
    /// Ctrl-d with nothing pasted.
    pub explain_nothing: &'static str,
    /// The explanation has no lesson to open.
    pub explain_no_link: &'static str,
    /// A printable key that is not a command on a focused card: `{key}` is the key.
    pub typed_into_code: &'static str,
    pub card_keys_then_code: &'static str,
    /// `b` on a card: `{id}` is the exercise whose next run uses blocking.
    pub blocking_armed: &'static str,
    pub blocking_disarmed: &'static str,
    /// On the card while `b` is on for its next run.
    pub blocking_badge: &'static str,
    /// Under the editor after a run with `b`'s blocking: an experiment, not graded.
    pub blocking_experiment: &'static str,
    /// A run started from the editor: the editor keeps the keys.
    pub still_editing: &'static str,
    /// A card's key (`{key}`) with no card focused.
    pub no_card_focused: &'static str,
    /// In the card's title: passed before, not with the code it holds now.
    pub solved_before: &'static str,
    /// A pane kept hidden while a prediction is due (the note under the editor says why).
    pub prediction_hidden: &'static str,
    /// `{ids}`: exercises another window changed too; this window's code was kept.
    pub other_window_changed: &'static str,
    /// Asked when a save wrote over code another window saved for `{id}` since this one
    /// loaded it.
    pub confirm_conflict: &'static str,
    pub conflict_kept_mine: &'static str,
    pub conflict_took_theirs: &'static str,
    pub conflict_kept_both: &'static str,
    /// The header line above the other window's code kept by "keep both".
    pub conflict_both_header: &'static str,
}

pub(super) const EN: Strings = Strings {
    app_name: "cudatutor",
    exercise: "Exercise",
    quiz: "Quiz",
    contents: "Lessons",
    help_title: " Keys ",
    lessons_title: " Lessons ",
    search_prompt: "/",
    no_match: "no match",
    matches: "match",
    short: en_short,
    long: en_long,
    section: en_section,
    too_small: "Terminal too small: enlarge it to at least 20x6",
    first_lesson: "This is the first lesson",
    last_lesson: "This is the last lesson",
    blocking_on: "CUDA_LAUNCH_BLOCKING=1",
    blocking_off: "blocking off",
    confirm_reset: "Replace the code of {id} with the starting code? (u brings it back)",
    confirm_restore: "Bring back the code the reset replaced in {id}?",
    confirm_solution: "Show the solution?",
    confirm_quit_running: "A run is going: stop it and quit?",
    confirm_quit_unsaved: "Your work is not saved ({why}): quit anyway?",
    editing: "editing",
    running: "running…",
    cancelling: "cancelling…",
    cancelled: "Run cancelled",
    run_timed_out: "The run passed its {secs} s limit and was stopped",
    run_abandoned: "The run did not stop; it was left to finish in the background",
    run_in_progress: "A run is already in progress",
    run_lost: "The run stopped without a report",
    run_internal_error: "Internal error in cudatutor during this run (not your code): {why}. Your code is saved; the pager goes on",
    save_before_run_failed: "Could not save your code before the run",
    not_run: "Not run yet: press r or F5",
    hint: "Hint",
    no_more_hints: "No more hints",
    no_solution: "This exercise has no solution to show",
    solution_title: " solution (read-only) ",
    reset_done: "Starting code restored; u brings your code back",
    restore_done: "Your earlier code is back; u swaps again",
    nothing_to_restore: "No earlier code to bring back",
    esc_hint: "Nothing to close: q quits (your place is saved)",
    interrupt_hint: "Ctrl-c cancels a run or copies in the editor; q quits",
    pane_output: "output",
    pane_memory: "memory",
    pane_timeline: "timeline",
    pane_checks: "checks",
    no_output: "(no output)",
    earlier_lines: "… {n} more lines: Shift-↑",
    reported_here: "the error was reported here",
    launched_here: "this line launched the failing kernel",
    allocated: "allocated",
    reserved: "reserved",
    peak: "peak",
    host: "host",
    device: "device",
    line: "line",
    modelled: "modelled times",
    measured: "measured times",
    legend_host: "● host call",
    legend_wait: "┄ host waits",
    legend_kernel: "▮▬ kernel",
    legend_failed: "✗ failed / reported",
    explain_async: "✗ line {line} {op}() failed on the device; the host had moved on, and line {rline} {rop}() reported it {gap} after the launch returned.",
    explain_blocking: "✗ line {line} {op}() failed on the device. CUDA_LAUNCH_BLOCKING=1: the host waits at each launch, so the launch itself reported it: no gap.",
    unlabelled: "{n} marks too close to label",
    no_timeline: "(no operations recorded)",
    no_checks: "(no checks ran)",
    syntax_first: "fix the SyntaxError first",
    check_n: "check {n}",
    checks_passed: "All checks passed: exercise done",
    checks_failed: "Some checks did not pass",
    predict_first: "Write your prediction first: set {names} in the code, then run. Until then the output, the timeline and the memory counters stay hidden.",
    stale_run: "from the code as it was at that run",
    quiz_correct: "Correct.",
    quiz_wrong: "Not quite.",
    quiz_answer_is: "The answer is",
    quiz_already: "Your first answer is the grade: this quiz is answered",
    save_failed: "Could not save progress",
    no_data_folder: "no data folder",
    copied: "Copied",
    sim: "sim",
    sim_device: "Simulated H200 (modelled)",
    compare_title: " Engine vs. real PyTorch ",
    comparing: "engine vs. real PyTorch (unsandboxed Python)…",
    editor_failed: "Your editor did not run: {why}",
    edited_outside: "Saved from your editor ({path}); running the checks",
    edited_outside_unchanged: "The file did not change; running the checks",
    explain_prompt_title: " Explain an error: paste a traceback, then Ctrl-d ",
    explain_prompt_help: "Paste the error's text here: the traceback, its last `...Error: ...` line, and the `Assertion ... failed.` lines above it if there are any. Enter starts a new line; Ctrl-d (or F5) explains it; Esc closes.",
    explain_title: " What this error is ",
    explain_nothing: "Nothing pasted yet: paste a traceback first (Esc closes)",
    explain_no_link: "No lesson of this set teaches it",
    typed_into_code: "`{key}` is not a card key, so it went into the code: you are editing (Esc leaves the editor)",
    card_keys_then_code: "{keys} acted as card keys; `{key}` is not one, so it went into the code: you are editing now (Esc leaves; Ctrl-z undoes)",
    blocking_armed: "CUDA_LAUNCH_BLOCKING=1 for the next run of {id} only: an experiment, not graded",
    blocking_disarmed: "CUDA_LAUNCH_BLOCKING off",
    blocking_badge: "CUDA_LAUNCH_BLOCKING=1 next run",
    blocking_experiment: "Experiment with CUDA_LAUNCH_BLOCKING=1: not graded (your ✓ and attempts are unchanged)",
    still_editing: "Running. You are still editing (letters are text): Esc leaves the editor, then o/m/t/c pick a pane",
    no_card_focused: "`{key}` acts on an exercise card, and none is focused: Tab focuses the first card on screen",
    solved_before: "solved before",
    prediction_hidden: "Hidden until you write your prediction (see above)",
    other_window_changed: "Another window changed {ids} too: your code is kept, and u brings back the other window's",
    confirm_conflict: "Another window saved other code for {id}: keep which?",
    conflict_kept_mine: "Kept this window's code for {id}; u brings back the other window's",
    conflict_took_theirs: "Took the other window's code for {id}; u brings back yours",
    conflict_kept_both: "Kept both in {id}: yours, then the other window's commented out below it",
    conflict_both_header: "# ---- the other window's version (kept by \"keep both\"; uncomment what you need) ----",
};

fn en_short(a: Action) -> &'static str {
    use Action::*;
    match a {
        Quit => "quit",
        ScrollDown | ScrollUp => "scroll",
        PageDown | PageUp => "page",
        HalfPageDown | HalfPageUp => "half page",
        Top | Bottom => "top/end",
        NextSection | PrevSection => "section",
        NextLesson | PrevLesson => "lesson",
        CodeLeft | CodeRight => "code sideways",
        Search => "search",
        LessonList => "lessons",
        ToggleContents => "contents",
        Help => "help",
        EscapeHint => "close",
        InterruptHint => "cancel/copy",
        NextMatch | PrevMatch => "match",
        ClearSearch => "clear search",
        SearchFind => "find",
        SearchCancel => "cancel",
        SearchErase => "erase",
        FocusNext | FocusPrev => "next",
        Unfocus => "back",
        Edit => "edit",
        Run => "run",
        Hint => "hint",
        Solution => "solution",
        Reset => "reset",
        RestorePrevious => "restore",
        ToggleBlocking => "blocking",
        PaneOutput | PaneMemory | PaneTimeline | PaneChecks => "pane",
        OutputBack | OutputForward | OutputLeft | OutputRight => "scroll output",
        Answer => "answer",
        Compare => "vs PyTorch",
        EditOutside => "your editor",
        Explain => "explain an error",
        ExplainSubmit => "explain",
        ExplainCancel => "close",
        ExplainErase => "delete",
        ExplainNewLine => "new line",
        OpenLink => "open the lesson",
        LeaveEditor => "leave editor",
        Undo | Redo => "undo/redo",
        Copy => "copy",
        Cut => "cut",
        Paste => "paste",
        SelectAll => "select all",
        BufferStart | BufferEnd => "start/end",
        Indent => "indent",
        Dedent => "dedent",
        NewLine => "new line",
        Backspace => "delete",
        EditorPageUp | EditorPageDown => "page",
        CancelRun => "cancel the run",
        Yes => "yes",
        No => "no",
        KeepMine => "mine",
        TakeTheirs => "theirs",
        KeepBoth => "both",
        CloseOverlay => "close",
        ListUp | ListDown => "move",
        ListOpen => "open",
    }
}

fn en_long(a: Action) -> &'static str {
    use Action::*;
    match a {
        Quit => "quit (asks first while a run is going or your work is unsaved)",
        ScrollDown => "scroll down one line",
        ScrollUp => "scroll up one line",
        PageDown => "scroll down one page",
        PageUp => "scroll up one page",
        HalfPageDown => "scroll down half a page",
        HalfPageUp => "scroll up half a page",
        Top => "top of the lesson",
        Bottom => "end of the lesson",
        NextSection => "next section",
        PrevSection => "previous section",
        NextLesson => "next lesson",
        PrevLesson => "previous lesson",
        CodeLeft => "code blocks sideways, back",
        CodeRight => "code blocks sideways, on (long lines)",
        Search => "search this lesson",
        LessonList => "the lesson list: ↑↓ Enter or a number",
        ToggleContents => "show / hide the contents pane",
        Help => "this help",
        EscapeHint => "close what is open; never quits",
        InterruptHint => "cancel a run; copy in the editor; never quits",
        NextMatch => "next match",
        PrevMatch => "previous match",
        ClearSearch => "clear the search",
        SearchFind => "find what you typed",
        SearchCancel => "stop typing a search",
        SearchErase => "erase a character",
        FocusNext => "next exercise or quiz",
        FocusPrev => "previous exercise or quiz",
        Unfocus => "back to reading",
        Edit => "edit the exercise",
        Run => "run the exercise and its checks",
        Hint => "show the next hint",
        Solution => "show / hide the solution (asks first)",
        Reset => "reset to the starting code (asks; u brings yours back)",
        RestorePrevious => "bring back the code a reset replaced",
        ToggleBlocking => "CUDA_LAUNCH_BLOCKING=1 for this card's next run only (not graded)",
        PaneOutput => "output pane",
        PaneMemory => "memory pane",
        PaneTimeline => "timeline pane",
        PaneChecks => "checks pane",
        OutputBack => "scroll the output up",
        OutputForward => "scroll the output down",
        OutputLeft => "scroll the output left",
        OutputRight => "scroll the output right",
        Answer => "answer the quiz (the first answer counts)",
        Compare => "run on the engine and on real PyTorch (unsandboxed) and show what differs",
        EditOutside => "edit in your own editor ($VISUAL / $EDITOR), then run the checks",
        Explain => "explain an error: paste a traceback from your own script",
        ExplainSubmit => "explain what was pasted",
        ExplainCancel => "close without explaining",
        ExplainErase => "delete the last character",
        ExplainNewLine => "new line (pasted text keeps its own)",
        OpenLink => "open the lesson section that teaches it",
        LeaveEditor => "leave the editor (the code is kept)",
        Undo => "undo (a reset too)",
        Redo => "redo",
        Copy => "copy the selection",
        Cut => "cut the selection",
        Paste => "paste",
        SelectAll => "select all",
        BufferStart => "start of the code",
        BufferEnd => "end of the code",
        Indent => "indent to the next multiple of 4",
        Dedent => "remove one level of indentation",
        NewLine => "new line, keeping the indentation",
        Backspace => "delete back; in indentation, to the previous stop",
        EditorPageUp => "page up in the code",
        EditorPageDown => "page down in the code",
        CancelRun => "cancel the run in flight",
        Yes => "yes",
        No => "no",
        KeepMine => "keep this window's code (the other's stays behind u)",
        TakeTheirs => "take the other window's code (yours stays behind u)",
        KeepBoth => "keep both: yours, then the other window's commented out below it",
        CloseOverlay => "close",
        ListUp => "up",
        ListDown => "down",
        ListOpen => "open",
    }
}

fn en_section(s: HelpSection) -> &'static str {
    match s {
        HelpSection::Reading => "Reading",
        HelpSection::Search => "After a search",
        HelpSection::Card => "An exercise card (Tab): any other letter is typed as code",
        HelpSection::Editor => "The editor (Enter); other keys are text",
        HelpSection::Quiz => "A quiz (Tab)",
        HelpSection::Running => "While a run is going",
        HelpSection::ExplainInput => "Pasting an error (!); other keys are text",
        HelpSection::Explained => "The explanation of an error",
    }
}

pub(super) const ZH: Strings = Strings {
    app_name: "cudatutor",
    exercise: "练习",
    quiz: "小测验",
    contents: "课程",
    help_title: " 按键 ",
    lessons_title: " 课程 ",
    search_prompt: "/",
    no_match: "没有匹配",
    matches: "处匹配",
    short: zh_short,
    long: zh_long,
    section: zh_section,
    too_small: "终端太小：请至少放大到 20x6",
    first_lesson: "这已是第一课",
    last_lesson: "这已是最后一课",
    blocking_on: "CUDA_LAUNCH_BLOCKING=1",
    blocking_off: "同步启动：关",
    confirm_reset: "用初始代码替换 {id} 的代码？（u 可以换回）",
    confirm_restore: "换回 {id} 中被重置替换掉的代码？",
    confirm_solution: "显示参考答案？",
    confirm_quit_running: "有运行正在进行：停止并退出？",
    confirm_quit_unsaved: "你的修改没有保存（{why}）：仍然退出？",
    editing: "编辑中",
    running: "运行中…",
    cancelling: "正在取消…",
    cancelled: "运行已取消",
    run_timed_out: "运行超过了 {secs} 秒的限制，已被停止",
    run_abandoned: "运行没有停下；已让它在后台结束",
    run_in_progress: "已有一次运行正在进行",
    run_lost: "运行结束了，但没有返回报告",
    run_internal_error: "本次运行中 cudatutor 出现内部错误（不是你的代码的问题）：{why}。你的代码已保存，页面继续可用",
    save_before_run_failed: "运行前未能保存你的代码",
    not_run: "尚未运行：按 r 或 F5",
    hint: "提示",
    no_more_hints: "没有更多提示了",
    no_solution: "这个练习没有可显示的答案",
    solution_title: " 参考答案（只读） ",
    reset_done: "已恢复初始代码；u 可以换回你的代码",
    restore_done: "你之前的代码回来了；再按 u 换回",
    nothing_to_restore: "没有可以换回的代码",
    esc_hint: "没有可关闭的内容：按 q 退出（会保存位置）",
    interrupt_hint: "Ctrl-c 取消运行或在编辑器中复制；按 q 退出",
    pane_output: "输出",
    pane_memory: "显存",
    pane_timeline: "时间线",
    pane_checks: "检查",
    no_output: "（没有输出）",
    earlier_lines: "… 还有 {n} 行：Shift-↑",
    reported_here: "错误在这一行被报告",
    launched_here: "这一行启动了出错的内核",
    allocated: "已分配",
    reserved: "已保留",
    peak: "峰值",
    host: "主机",
    device: "设备",
    line: "行",
    modelled: "模拟时间",
    measured: "实测时间",
    legend_host: "● 主机调用",
    legend_wait: "┄ 主机等待",
    legend_kernel: "▮▬ 内核",
    legend_failed: "✗ 失败 / 报告",
    explain_async: "✗ 第 {line} 行的 {op}() 在设备上失败；主机已经继续执行，由第 {rline} 行的 {rop}() 报告，距启动调用返回 {gap}。",
    explain_blocking: "✗ 第 {line} 行的 {op}() 在设备上失败。CUDA_LAUNCH_BLOCKING=1：主机在每次启动时等待，所以由启动调用本身报告：没有间隔。",
    unlabelled: "{n} 个标记太密，无法标注行号",
    no_timeline: "（没有记录到操作）",
    no_checks: "（没有运行检查）",
    syntax_first: "请先修正 SyntaxError",
    check_n: "检查 {n}",
    checks_passed: "全部检查通过：练习完成",
    checks_failed: "有检查没有通过",
    predict_first: "请先写下你的预测：在代码中设置 {names}，然后运行。在此之前，输出、时间线和显存计数都不显示。",
    stale_run: "来自那次运行时的代码",
    quiz_correct: "回答正确。",
    quiz_wrong: "不太对。",
    quiz_answer_is: "正确答案是",
    quiz_already: "以第一次作答计分：这道小测验已经答过了",
    save_failed: "无法保存进度",
    no_data_folder: "没有数据文件夹",
    copied: "已复制",
    sim: "模拟",
    sim_device: "模拟的 H200（时间为模型估算）",
    compare_title: " 引擎与真实的 PyTorch 对比 ",
    comparing: "引擎对比真实的 PyTorch（未经沙箱隔离的 Python）…",
    editor_failed: "你的编辑器没有运行成功：{why}",
    edited_outside: "已从你的编辑器保存（{path}）；正在运行检查",
    edited_outside_unchanged: "文件没有变化；正在运行检查",
    explain_prompt_title: " 解释错误：粘贴 traceback，然后按 Ctrl-d ",
    explain_prompt_help: "把错误的文字粘贴到这里：traceback、最后的 `...Error: ...` 那一行，以及它上方的 `Assertion ... failed.` 行（如果有）。Enter 换行；Ctrl-d（或 F5）开始解释；Esc 关闭。",
    explain_title: " 这个错误是什么 ",
    explain_nothing: "还没有粘贴内容：请先粘贴 traceback（Esc 关闭）",
    explain_no_link: "这套课程中没有讲它的课",
    typed_into_code: "`{key}` 不是卡片上的按键，所以它被输入到代码中：你正在编辑（按 Esc 离开编辑器）",
    card_keys_then_code: "{keys} 作为卡片按键执行了；`{key}` 不是卡片按键，所以它被输入到代码中：你现在正在编辑（Esc 离开；Ctrl-z 撤销）",
    blocking_armed: "仅 {id} 的下一次运行使用 CUDA_LAUNCH_BLOCKING=1：这是一次实验，不计分",
    blocking_disarmed: "CUDA_LAUNCH_BLOCKING 已关闭",
    blocking_badge: "下次运行 CUDA_LAUNCH_BLOCKING=1",
    blocking_experiment: "使用 CUDA_LAUNCH_BLOCKING=1 的实验：不计分（你的 ✓ 和尝试次数不变）",
    still_editing: "正在运行。你仍在编辑中（字母都是文字）：按 Esc 离开编辑器，再用 o/m/t/c 选择面板",
    no_card_focused: "`{key}` 作用于练习卡片，但当前没有聚焦的卡片：按 Tab 聚焦屏幕上的第一张卡片",
    solved_before: "曾经通过",
    prediction_hidden: "写下预测之前不显示（见上方）",
    other_window_changed: "另一个窗口也修改了 {ids}：保留你的代码，按 u 可取回另一个窗口的版本",
    confirm_conflict: "另一个窗口为 {id} 保存了不同的代码：保留哪一份？",
    conflict_kept_mine: "已保留本窗口的 {id} 代码；按 u 可取回另一个窗口的版本",
    conflict_took_theirs: "已采用另一个窗口的 {id} 代码；按 u 可取回你的版本",
    conflict_kept_both: "{id} 中两者都已保留：先是你的，下面是另一个窗口的版本（已注释）",
    conflict_both_header: "# ---- 另一个窗口的版本（由“两者都保留”保留；按需取消注释）----",
};

fn zh_short(a: Action) -> &'static str {
    use Action::*;
    match a {
        Quit => "退出",
        ScrollDown | ScrollUp => "滚动",
        PageDown | PageUp => "翻页",
        HalfPageDown | HalfPageUp => "半页",
        Top | Bottom => "开头/结尾",
        NextSection | PrevSection => "小节",
        NextLesson | PrevLesson => "课程",
        CodeLeft | CodeRight => "横向滚动代码",
        Search => "搜索",
        LessonList => "课程列表",
        ToggleContents => "目录",
        Help => "帮助",
        EscapeHint => "关闭",
        InterruptHint => "取消/复制",
        NextMatch | PrevMatch => "匹配",
        ClearSearch => "清除搜索",
        SearchFind => "查找",
        SearchCancel => "取消",
        SearchErase => "删除",
        FocusNext | FocusPrev => "下一个",
        Unfocus => "返回",
        Edit => "编辑",
        Run => "运行",
        Hint => "提示",
        Solution => "答案",
        Reset => "重置",
        RestorePrevious => "换回",
        ToggleBlocking => "同步启动",
        PaneOutput | PaneMemory | PaneTimeline | PaneChecks => "面板",
        OutputBack | OutputForward | OutputLeft | OutputRight => "滚动输出",
        Answer => "作答",
        Compare => "对比 PyTorch",
        EditOutside => "外部编辑器",
        Explain => "解释错误",
        ExplainSubmit => "解释",
        ExplainCancel => "关闭",
        ExplainErase => "删除",
        ExplainNewLine => "换行",
        OpenLink => "打开课程",
        LeaveEditor => "离开编辑器",
        Undo | Redo => "撤销/重做",
        Copy => "复制",
        Cut => "剪切",
        Paste => "粘贴",
        SelectAll => "全选",
        BufferStart | BufferEnd => "开头/结尾",
        Indent => "缩进",
        Dedent => "减少缩进",
        NewLine => "换行",
        Backspace => "删除",
        EditorPageUp | EditorPageDown => "翻页",
        CancelRun => "取消运行",
        Yes => "是",
        No => "否",
        KeepMine => "我的",
        TakeTheirs => "对方的",
        KeepBoth => "都保留",
        CloseOverlay => "关闭",
        ListUp | ListDown => "移动",
        ListOpen => "打开",
    }
}

fn zh_long(a: Action) -> &'static str {
    use Action::*;
    match a {
        Quit => "退出（有运行或未保存的修改时会先确认）",
        ScrollDown => "向下滚动一行",
        ScrollUp => "向上滚动一行",
        PageDown => "向下滚动一页",
        PageUp => "向上滚动一页",
        HalfPageDown => "向下滚动半页",
        HalfPageUp => "向上滚动半页",
        Top => "课程开头",
        Bottom => "课程结尾",
        NextSection => "下一节",
        PrevSection => "上一节",
        NextLesson => "下一课",
        PrevLesson => "上一课",
        CodeLeft => "代码块向左滚动",
        CodeRight => "代码块向右滚动（长行）",
        Search => "在本课中搜索",
        LessonList => "课程列表：↑↓ Enter 或数字",
        ToggleContents => "显示 / 隐藏目录",
        Help => "本帮助",
        EscapeHint => "关闭打开的内容；不会退出",
        InterruptHint => "取消运行；在编辑器中复制；不会退出",
        NextMatch => "下一个匹配",
        PrevMatch => "上一个匹配",
        ClearSearch => "清除搜索",
        SearchFind => "查找输入的内容",
        SearchCancel => "取消输入搜索",
        SearchErase => "删除一个字符",
        FocusNext => "下一个练习或小测验",
        FocusPrev => "上一个练习或小测验",
        Unfocus => "回到阅读",
        Edit => "编辑练习",
        Run => "运行练习及其检查",
        Hint => "显示下一条提示",
        Solution => "显示 / 隐藏参考答案（会先确认）",
        Reset => "恢复初始代码（会先确认；u 换回你的代码）",
        RestorePrevious => "换回被重置替换掉的代码",
        ToggleBlocking => "仅此卡片下次运行用 CUDA_LAUNCH_BLOCKING=1（不计分）",
        PaneOutput => "输出面板",
        PaneMemory => "显存面板",
        PaneTimeline => "时间线面板",
        PaneChecks => "检查面板",
        OutputBack => "输出向上滚动",
        OutputForward => "输出向下滚动",
        OutputLeft => "输出向左滚动",
        OutputRight => "输出向右滚动",
        Answer => "回答小测验（以第一次作答计分）",
        Compare => "在引擎和真实的 PyTorch（未经沙箱隔离）上各运行一次，显示不同之处",
        EditOutside => "用你自己的编辑器（$VISUAL / $EDITOR）编辑，关闭后运行检查",
        Explain => "解释错误：粘贴你自己脚本的 traceback",
        ExplainSubmit => "解释粘贴的内容",
        ExplainCancel => "不解释，直接关闭",
        ExplainErase => "删除最后一个字符",
        ExplainNewLine => "换行（粘贴的文字保留原有的换行）",
        OpenLink => "打开讲解它的课程小节",
        LeaveEditor => "离开编辑器（代码会保留）",
        Undo => "撤销（包括重置）",
        Redo => "重做",
        Copy => "复制选中内容",
        Cut => "剪切选中内容",
        Paste => "粘贴",
        SelectAll => "全选",
        BufferStart => "代码开头",
        BufferEnd => "代码结尾",
        Indent => "缩进到下一个 4 的倍数",
        Dedent => "减少一级缩进",
        NewLine => "换行并保持缩进",
        Backspace => "向前删除；在缩进中删到上一个缩进位置",
        EditorPageUp => "代码向上翻页",
        EditorPageDown => "代码向下翻页",
        CancelRun => "取消正在进行的运行",
        Yes => "是",
        No => "否",
        KeepMine => "保留本窗口的代码（另一个窗口的版本可用 u 取回）",
        TakeTheirs => "采用另一个窗口的代码（你的版本可用 u 取回）",
        KeepBoth => "两者都保留：先是你的，下面是另一个窗口的版本（已注释）",
        CloseOverlay => "关闭",
        ListUp => "向上",
        ListDown => "向下",
        ListOpen => "打开",
    }
}

fn zh_section(s: HelpSection) -> &'static str {
    match s {
        HelpSection::Reading => "阅读",
        HelpSection::Search => "搜索之后",
        HelpSection::Card => "练习卡片（Tab）：其他字母都输入为代码",
        HelpSection::Editor => "编辑器（Enter）；其他按键都是文字",
        HelpSection::Quiz => "小测验（Tab）",
        HelpSection::Running => "运行进行中",
        HelpSection::ExplainInput => "粘贴错误（!）；其他按键都是文字",
        HelpSection::Explained => "错误的解释",
    }
}

pub(super) fn for_lang(lang: Lang) -> &'static Strings {
    lang.pick(&EN, &ZH)
}

/// The backend label in the learner's language: "sim · Simulated H200 (modelled)" becomes
/// "模拟 · 模拟的 H200（时间为模型估算）" in Chinese; a real GPU's name is kept as it is.
pub(super) fn backend_label(label: &BackendLabel, s: &Strings) -> String {
    let backend = match label.backend {
        Backend::Sim => s.sim,
        other => other.name(),
    };
    format!(
        "{backend} · {}",
        label.device.replace(EN.sim_device, s.sim_device)
    )
}

/// A device name as the memory pane shows it (the simulated one translated).
pub(super) fn device_name(name: &str, s: &Strings) -> String {
    name.replace(EN.sim_device, s.sim_device)
}

/// Where README.md's key tables start and end: what is between is [`readme_tables`]'s text.
pub const README_BEGIN: &str = "<!-- key tables: generated from src/ui/keys.rs (UPDATE_README_KEYS=1 cargo test --release --test ui_cards readme) -->";
pub const README_END: &str = "<!-- end of the generated key tables -->";

/// README.md's key tables, in English, from the key table (`keys.rs`) as dispatch and the help
/// overlay read it (here, not in keys.rs, so that keys does not import strings):
/// one table per help section, each binding with all its keys and its help sentence.
pub fn readme_tables() -> String {
    let s = &EN;
    let mut out = String::new();
    for (section, bindings) in super::keys::help_sections() {
        out.push_str(&format!(
            "\n**{}**\n\n| keys | action |\n|---|---|\n",
            (s.section)(section)
        ));
        for binding in bindings {
            let keys = if binding.keys.len() == 9 {
                format!("`{}`", binding.label)
            } else {
                binding
                    .keys
                    .iter()
                    .map(|k| format!("`{}`", super::keys::key_name(k)))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            out.push_str(&format!("| {keys} | {} |\n", (s.long)(binding.action)));
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(backend: Backend, device: &str) -> BackendLabel {
        BackendLabel {
            backend,
            device: device.to_string(),
        }
    }

    #[test]
    fn the_backend_label_is_translated() {
        assert_eq!(
            backend_label(&label(Backend::Sim, "Simulated H200 (modelled) ×2"), &ZH),
            "模拟 · 模拟的 H200（时间为模型估算） ×2"
        );
        assert_eq!(
            backend_label(&label(Backend::Sim, "Simulated H200 (modelled)"), &EN),
            "sim · Simulated H200 (modelled)"
        );
        assert_eq!(
            backend_label(&label(Backend::Cuda, "NVIDIA H200"), &ZH),
            "cuda · NVIDIA H200"
        );
    }

    #[test]
    fn the_simulated_device_name_is_the_engines() {
        assert_eq!(EN.sim_device, crate::run::SIM_DEVICE_NAME);
    }
}

//! Reading a pasted log: any mix of stdout, stderr and device-log lines, from any PyTorch
//! version, possibly with terminal colours, Windows line ends, `[rank0]:` prefixes or tabs.
//! Nothing here fails: text that is not a traceback is simply lines.

use regex::Regex;
use std::sync::OnceLock;

/// The most of a paste that is read: a log's end holds the error, so a longer paste keeps
/// its last `MAX_TEXT` bytes.
pub(crate) const MAX_TEXT: usize = 1 << 20;

/// One `File "...", line N, in f` frame of a traceback, with its code line when shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub file: String,
    pub line: u32,
    pub function: String,
    pub code: Option<String>,
}

impl Frame {
    /// PyTorch's, Python's or another installed package's code, not the learner's.
    pub(crate) fn is_library(&self) -> bool {
        let f = self.file.replace('\\', "/").to_ascii_lowercase();
        f.contains("site-packages/")
            || f.contains("dist-packages/")
            || f.starts_with('<')
            || f.contains("/lib/python")
            || f.contains("/python3") && f.contains("/lib/")
            || f.contains("/lib/multiprocessing/")
            || f.contains("/usr/lib/")
    }
}

/// A kernel's `... Assertion `cond` failed.` line from the device log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssertLine {
    /// The kernel's source file and line (`Loss.cu:244`).
    pub source: String,
    pub kernel: String,
    pub block: [u64; 3],
    pub thread: [u64; 3],
    pub condition: String,
}

/// The exception a traceback ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exception {
    /// As printed, qualified or not (`torch.AcceleratorError`, `RuntimeError`).
    pub type_name: String,
    /// The message, all its lines.
    pub message: String,
}

impl Exception {
    #[cfg(test)]
    /// The type without its module (`AcceleratorError`).
    pub(crate) fn short_type(&self) -> &str {
        self.type_name.rsplit('.').next().unwrap_or(&self.type_name)
    }
}

/// A paste, read.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The cleaned text: what the family patterns run on.
    pub text: String,
    /// The frames of the last traceback, outermost first.
    pub frames: Vec<Frame>,
    /// The last exception in the paste.
    pub exception: Option<Exception>,
    pub asserts: Vec<AssertLine>,
}

impl Parsed {
    /// The last frame of the learner's own code (not PyTorch's or a library's).
    pub(crate) fn last_own_frame(&self) -> Option<&Frame> {
        self.frames.iter().rev().find(|f| !f.is_library())
    }
    /// How many frames follow it (PyTorch's own code the call went into).
    pub(crate) fn library_frames_below(&self) -> usize {
        let last = self.frames.iter().rposition(|f| !f.is_library());
        match last {
            Some(i) => self.frames.len() - i - 1,
            None => self.frames.len(),
        }
    }
}

/// `fn $name() -> &'static Regex`: `$pattern`, compiled at the first call.
macro_rules! cached_regex {
    ($(#[$doc:meta])* $name:ident, $pattern:expr) => {
        $(#[$doc])*
        fn $name() -> &'static Regex {
            static R: OnceLock<Regex> = OnceLock::new();
            R.get_or_init(|| Regex::new($pattern).expect("a fixed pattern"))
        }
    };
}

cached_regex!(
    ansi,
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
);

cached_regex!(
    /// `[rank0]:`, `[rank1]:[E1205 ...]` stays (it is the message), ` | ` loggers, `E   ` of pytest.
    prefix,
    r"^(?:\[rank\d+\]:\s?(?:\[[A-Z]\d{4} [^\]]*\]\s?)?|\[\d+\]\s|E {3})"
);

cached_regex!(
    frame_re,
    r#"^\s*File "(?P<file>[^"]*)", line (?P<line>\d{1,9})(?:, in (?P<func>.*))?\s*$"#
);

cached_regex!(
    exception_re,
    r"^(?P<type>(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception|Interrupt|Exit))(?::\s?(?P<msg>.*))?$"
);

cached_regex!(
    assert_re,
    r"(?P<src>[^\s:]*\.(?:cu|cuh|hip|cpp|h)):(?P<line>\d+): (?P<kernel>.*?): block: \[(?P<b0>\d+),(?P<b1>\d+),(?P<b2>\d+)\], thread: \[(?P<t0>\d+),(?P<t1>\d+),(?P<t2>\d+)\] Assertion `(?P<cond>.*)` failed\.?"
);

/// Reads a paste. Never fails; very long pastes keep their end.
pub(crate) fn parse(raw: &str) -> Parsed {
    let mut raw = raw;
    if raw.len() > MAX_TEXT {
        let mut cut = raw.len() - MAX_TEXT;
        while !raw.is_char_boundary(cut) {
            cut += 1;
        }
        raw = &raw[cut..];
    }
    let text = clean(raw);
    let lines: Vec<&str> = text.lines().collect();
    let mut frames: Vec<Frame> = Vec::new();
    let mut exception: Option<Exception> = None;
    let mut asserts = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line
            .trim_start()
            .starts_with("Traceback (most recent call last)")
        {
            frames.clear();
            i += 1;
            continue;
        }
        if let Some(c) = frame_re().captures(line) {
            let mut frame = Frame {
                file: c["file"].to_string(),
                line: c["line"].parse().unwrap_or(0),
                function: c.name("func").map_or("", |m| m.as_str()).trim().to_string(),
                code: None,
            };
            // the code line: indented, not another frame, not a caret line
            if let Some(next) = lines.get(i + 1)
                && next.starts_with(' ')
                && !frame_re().is_match(next)
                && !is_caret_line(next)
                && !next.trim().is_empty()
            {
                frame.code = Some(next.trim().to_string());
                i += 1;
            }
            frames.push(frame);
            i += 1;
            continue;
        }
        if let Some(c) = assert_re().captures(line) {
            let num = |k: &str| c[k].parse::<u64>().unwrap_or(0);
            let source = c["src"].rsplit('/').next().unwrap_or("").to_string();
            asserts.push(AssertLine {
                source: format!("{source}:{}", &c["line"]),
                kernel: c["kernel"].trim().to_string(),
                block: [num("b0"), num("b1"), num("b2")],
                thread: [num("t0"), num("t1"), num("t2")],
                condition: c["cond"].to_string(),
            });
            i += 1;
            continue;
        }
        if !line.starts_with(' ')
            && let Some(c) = exception_re().captures(line)
        {
            let mut message = c.name("msg").map_or("", |m| m.as_str()).to_string();
            // the message's further lines, up to a blank line or the next traceback part
            let mut j = i + 1;
            while let Some(next) = lines.get(j) {
                if next.trim().is_empty()
                    || frame_re().is_match(next)
                    || next.starts_with("Traceback")
                    || next.starts_with("During handling")
                    || next.starts_with("The above exception")
                    || assert_re().is_match(next)
                    || (!next.starts_with(' ') && exception_re().is_match(next))
                {
                    break;
                }
                message.push('\n');
                message.push_str(next);
                j += 1;
            }
            exception = Some(Exception {
                type_name: c["type"].to_string(),
                message,
            });
            i = j;
            continue;
        }
        i += 1;
    }
    Parsed {
        text,
        frames,
        exception,
        asserts,
    }
}

fn is_caret_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '^' | '~' | ' '))
}

/// Colours and control characters out, line ends unified, log prefixes removed, tabs as
/// spaces.
fn clean(raw: &str) -> String {
    // Windows line ends first, so `\r\n` is one line end, not a line end and a blank line
    // (which would cut a frame from its code line); a lone `\r` (a progress bar) still ends one.
    let no_colour = ansi().replace_all(raw, "").replace("\r\n", "\n");
    let mut out = String::with_capacity(no_colour.len());
    for line in no_colour.split(['\n', '\r']) {
        let line = prefix().replace(line, "");
        for ch in line.chars() {
            match ch {
                '\t' => out.push_str("    "),
                c if c.is_control() => {}
                c => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceback_gives_its_frames_exception_and_device_log() {
        let text = "/pytorch/aten/src/ATen/native/cuda/Loss.cu:245: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.\r\nTraceback (most recent call last):\r\n  File \"/work/train.py\", line 6, in <module>\r\n    doubled = loss * 2\r\n              ~~~~~^~~\r\ntorch.AcceleratorError: CUDA error: device-side assert triggered\r\nSearch for `cudaErrorAssert' in x.\r\n";
        let p = parse(text);
        assert_eq!(p.frames.len(), 1);
        assert_eq!(p.frames[0].line, 6);
        assert_eq!(p.frames[0].code.as_deref(), Some("doubled = loss * 2"));
        let e = p.exception.unwrap();
        assert_eq!(e.short_type(), "AcceleratorError");
        assert_eq!(
            e.message,
            "CUDA error: device-side assert triggered\nSearch for `cudaErrorAssert' in x."
        );
        assert_eq!(p.asserts.len(), 1);
        assert_eq!(p.asserts[0].thread, [5, 0, 0]);
        assert_eq!(p.asserts[0].source, "Loss.cu:245");
    }

    #[test]
    fn library_frames_are_told_from_the_learners() {
        let own = Frame {
            file: "/home/me/train.py".into(),
            line: 3,
            function: "<module>".into(),
            code: None,
        };
        let torch = Frame {
            file: "/opt/venv/lib/python3.12/site-packages/torch/nn/functional.py".into(),
            ..own.clone()
        };
        let win = Frame {
            file: "C:\\Python311\\Lib\\site-packages\\torch\\cuda\\__init__.py".into(),
            ..own.clone()
        };
        assert!(!own.is_library());
        assert!(torch.is_library());
        assert!(win.is_library());
    }

    #[test]
    fn colours_and_rank_prefixes_do_not_hide_the_error() {
        let p = parse("[rank0]: \x1b[31mRuntimeError: boom\x1b[0m\n");
        assert_eq!(p.exception.unwrap().message, "boom");
    }
}

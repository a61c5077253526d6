//! Where the error really started, as far as the paste (and the learner's script, when it can
//! be read) tells: which traceback line to trust, which to distrust, and why.
//!
//! A host-side error (a shape, a dtype, a device mismatch) is raised by the call that made it:
//! the last line of the learner's own code in the traceback is the origin, and the frames
//! below it are PyTorch's. A deferred CUDA error (a device-side assert, an illegal address) is
//! raised by whichever CUDA call noticed the broken context first: the traceback's last line
//! is where the host noticed it, and the origin is an earlier launch — unless that line
//! itself launches the failing kind of kernel, or CUDA_LAUNCH_BLOCKING=1 was set.

use super::catalogue::Family;
use super::input::{Frame, Parsed};

/// The most of a script that is read to look for the origin.
const MAX_SCRIPT: u64 = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// No frame of the learner's code in the paste.
    NoTraceback,
    /// The last own line is the origin: a host-side check.
    HostCheck,
    /// The last own line launches the failing kind of kernel itself.
    LaunchesIt,
    /// The message says CUDA_LAUNCH_BLOCKING=1 was on: the report is at the origin.
    Blocking,
    /// The last own line is only where the host noticed the failure.
    OnlyNoticed,
}

#[derive(Debug, Clone)]
pub struct Origin {
    pub reported: Option<Frame>,
    /// Frames of PyTorch's (or another library's) code below the last own frame.
    pub library_below: usize,
    /// Their files, shortened (`torch/nn/functional.py`), at most three.
    pub library_files: Vec<String>,
    pub trust: Trust,
    /// A line of the script that launches the failing kind of kernel, found by reading the
    /// script the traceback names: (line, its text).
    pub candidate: Option<(u32, String)>,
}

/// `read_script` reads a file named in the traceback (None: not readable); the CLI passes one
/// that reads the disk, tests and the pager one that reads nothing.
pub(crate) fn analyse(
    parsed: &Parsed,
    family: Option<&Family>,
    read_script: &dyn Fn(&str) -> Option<String>,
) -> Origin {
    let reported = parsed.last_own_frame().cloned();
    let below = parsed.library_frames_below();
    let library_files = parsed
        .frames
        .iter()
        .rev()
        .take(below)
        .rev()
        .map(|f| short_path(&f.file))
        .fold(Vec::new(), |mut v: Vec<String>, f| {
            if !v.contains(&f) && v.len() < 3 {
                v.push(f);
            }
            v
        });
    let deferred = family.is_some_and(|f| f.deferred);
    let calls: &[String] = family.map_or(&[], |f| f.origin_calls.as_slice());
    let message = parsed.exception.as_ref().map_or("", |e| e.message.as_str());
    let trust = match &reported {
        None => Trust::NoTraceback,
        Some(_) if !deferred => Trust::HostCheck,
        Some(f) if f.code.as_deref().is_some_and(|c| launches(c, calls)) => Trust::LaunchesIt,
        Some(_) if says_blocking(message) => Trust::Blocking,
        Some(_) => Trust::OnlyNoticed,
    };
    let candidate = match (&trust, &reported) {
        (Trust::OnlyNoticed, Some(f)) => {
            read_script(&f.file).and_then(|source| find_launch(&source, f.line, calls))
        }
        _ => None,
    };
    Origin {
        reported,
        library_below: below,
        library_files,
        trust,
        candidate,
    }
}

/// Whether a line of code calls one of `calls` (as a name, not inside a longer word).
fn launches(code: &str, calls: &[String]) -> bool {
    let code = code.split('#').next().unwrap_or("");
    calls.iter().any(|c| {
        code.match_indices(c.as_str()).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + c.len()..].chars().next();
            !before.is_some_and(|b| b.is_alphanumeric() || b == '_')
                && !after.is_some_and(|a| a.is_alphanumeric() || a == '_')
        })
    })
}

/// PyTorch 2.x drops the "asynchronously reported" advice when CUDA_LAUNCH_BLOCKING=1 is set;
/// its help line ("Search for `cudaError...'") says the message is a 2.x one.
fn says_blocking(message: &str) -> bool {
    message.contains("Search for `") && !message.contains("asynchronously reported")
}

/// The nearest line before `reported` (else after it: a loop's later line) that calls one of
/// `calls`.
fn find_launch(source: &str, reported: u32, calls: &[String]) -> Option<(u32, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let at = (reported as usize).min(lines.len());
    let hit = |i: usize| {
        let l = lines[i].trim();
        (!l.starts_with('#') && launches(l, calls)).then(|| ((i + 1) as u32, l.to_string()))
    };
    (0..at.saturating_sub(1))
        .rev()
        .find_map(hit)
        .or_else(|| (at..lines.len()).find_map(hit))
}

/// `torch/nn/functional.py` from a full site-packages path.
pub(crate) fn short_path(file: &str) -> String {
    let f = file.replace('\\', "/");
    for marker in ["site-packages/", "dist-packages/"] {
        if let Some(i) = f.find(marker) {
            return f[i + marker.len()..].to_string();
        }
    }
    f.rsplit('/').next().unwrap_or(&f).to_string()
}

/// Reads a script the traceback names, when it is a regular file of reasonable size.
pub(crate) fn read_from_disk(path: &str) -> Option<String> {
    let bytes = crate::regular_file::read(std::path::Path::new(path), MAX_SCRIPT).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_found_as_a_name_not_inside_a_longer_one() {
        let calls = vec!["cross_entropy".to_string(), "criterion".to_string()];
        assert!(launches("loss = F.cross_entropy(out, y)", &calls));
        assert!(launches("loss = criterion(out, y)", &calls));
        assert!(!launches("loss = my_cross_entropy_v2(out, y)", &calls));
        assert!(!launches("x = 1  # criterion(out, y)", &calls));
    }

    #[test]
    fn the_launch_before_the_reported_line_is_the_candidate() {
        let src = "import torch\nloss = criterion(out, y)\nz = 1\nprint(loss.item())\n";
        let calls = vec!["criterion".to_string()];
        assert_eq!(
            find_launch(src, 4, &calls),
            Some((2, "loss = criterion(out, y)".to_string()))
        );
        // a loop's later line when nothing comes before
        let src = "for b in data:\n    print(loss.item())\n    loss = criterion(b)\n";
        assert_eq!(find_launch(src, 2, &calls).map(|c| c.0), Some(3));
        assert_eq!(find_launch("", 9, &calls), None);
    }
}

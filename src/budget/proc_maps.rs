//! The process's memory mappings as /proc/self/smaps lists them, for the tests that check how
//! the allocator and the run thread's heap are mapped.

/// One mapping's permissions (`rw-p`) and `VmFlags` (`rd wr mr mw me ac hg`).
pub(crate) struct Mapping {
    pub(crate) perms: String,
    pub(crate) flags: String,
}

/// The mappings that overlap `[start, end)`, in address order.
pub(crate) fn mappings_over(start: usize, end: usize) -> Vec<Mapping> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut found = Vec::new();
    // the permissions of the mapping being read, when it overlaps
    let mut current: Option<String> = None;
    for line in smaps.lines() {
        if let Some(flags) = line.strip_prefix("VmFlags:") {
            if let Some(perms) = current.take() {
                let flags = flags.trim().to_string();
                found.push(Mapping { perms, flags });
            }
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(span), Some(perms)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Some((lo, hi)) = span.split_once('-') else {
            continue;
        };
        let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        else {
            continue;
        };
        if lo < end && start < hi {
            current = Some(perms.to_string());
        }
    }
    found
}

//! The memory budget of a run, beneath both the tensor engine and the interpreter: one count
//! of what a run holds and one limit, so that neither a tensor nor a list can take the
//! machine (or the learner's container) past what it allows.
//!
//! * **The limit** ([`limit`]): `--memory-limit` ([`set_limit`]), else `CUDATUTOR_MEMORY_LIMIT`
//!   (or the older `CUDATUTOR_HOST_MEM_LIMIT`; bytes, or with a `K`/`M`/`G`/`T` suffix, `KiB`,
//!   `GiB`… accepted), else half of `MemTotal` in /proc/meminfo but at most [`DEFAULT_CAP`].
//!   Read once per process.
//! * **What the process may still take** ([`run_limit`], when a run begins): the limit, three
//!   quarters of the address space left under `RLIMIT_AS` and of the data segment left under
//!   `RLIMIT_DATA`, and three quarters of what the process's own cgroup still allows: the
//!   cgroup named in /proc/self/cgroup and every ancestor (v2 `memory.max`/`memory.current`, v1
//!   `memory.limit_in_bytes`/`memory.usage_in_bytes`), so a nested cgroup of 2 GiB inside an
//!   unlimited root is seen.
//! * **The count**: [`CountingAlloc`], the global allocator the binary declares (src/main.rs),
//!   counts each thread's live heap bytes (one thread-local add per allocation and free). A run
//!   ([`RunBudget::begin`], held by the interpreter) takes the thread's count at its start as
//!   its baseline. Before a big allocation the interpreter asks [`can_allocate`] (CPython's
//!   `MemoryError` when the answer is no) and the engine [`room_for`] (PyTorch's allocation
//!   failure). Memory that is not heap (generator stacks) is [`charge`]d to the same count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::sync::OnceLock;

mod mapped;
#[cfg(all(test, target_os = "linux"))]
pub(crate) mod proc_maps;

/// The most a run takes by default, however big the machine: a tutorial's exercises need
/// megabytes, and a classroom server grades many learners at once.
pub(crate) const DEFAULT_CAP: u64 = 3 << 30;

/// The variable that sets the limit (`--memory-limit` sets it too, for the run's children).
pub(crate) const LIMIT_VAR: &str = "CUDATUTOR_MEMORY_LIMIT";
/// The older name of [`LIMIT_VAR`], still read.
pub(crate) const OLD_LIMIT_VAR: &str = "CUDATUTOR_HOST_MEM_LIMIT";

static LIMIT: OnceLock<u64> = OnceLock::new();

/// Sets the process's limit (`--memory-limit`), before anything has read it; false when it was
/// already read.
pub(crate) fn set_limit(bytes: u64) -> bool {
    LIMIT.set(bytes.max(1)).is_ok()
}

/// The process's limit (see the module docs).
pub fn limit() -> u64 {
    *LIMIT.get_or_init(|| {
        [LIMIT_VAR, OLD_LIMIT_VAR]
            .iter()
            .find_map(|v| std::env::var(v).ok().and_then(|s| parse_size(&s)))
            .unwrap_or_else(|| {
                std::fs::read_to_string("/proc/meminfo")
                    .ok()
                    .and_then(|m| mem_total(&m))
                    .map_or(DEFAULT_CAP, |total| (total / 2).min(DEFAULT_CAP))
            })
    })
}

// ---------------------------------------------------------------- the count

/// The global allocator: the system's, counting each thread's live heap bytes. The binary
/// declares it (`#[global_allocator]` in src/main.rs); test crates that run the interpreter in
/// their own process declare it too.
pub struct CountingAlloc;

thread_local! {
    /// Bytes this thread allocated and has not freed (frees of other threads' memory make it
    /// smaller; only its growth during a run matters).
    static THREAD_HEAP: Cell<i64> = const { Cell::new(0) };
    /// This thread's run: its baseline heap count and its limit (`u64::MAX`: no run).
    static RUN: Cell<(i64, u64)> = const { Cell::new((0, u64::MAX)) };
}

/// What a block of `size` bytes costs the process, counted instead of its size: glibc gives a
/// small block a chunk of its size plus an 8-byte header, rounded up to 16 and at least 32
/// bytes (a 40-byte tuple takes 48), and a mapped block whole pages. Counting sizes alone,
/// `list(enumerate(range(10**9)))` (millions of small tuples) reached 3351 MiB of RSS under a
/// 3072 MiB budget.
#[inline]
fn cost(size: usize) -> i64 {
    if size >= mapped::MAPPED_BLOCK {
        size.next_multiple_of(4096) as i64
    } else {
        (size.saturating_add(8 + 15) & !15).max(32) as i64
    }
}

#[inline]
fn count(delta: i64) {
    let _ = THREAD_HEAP.try_with(|h| h.set(h.get().wrapping_add(delta)));
}

/// Blocks at least this big are advised to use transparent huge pages: the kernel maps and
/// (at exit) unmaps them 2 MiB at a time instead of 4 KiB. A run stopped while it hoards
/// 2.9 GB of 16 MB lists spent 1.0 s of its exit unmapping small pages on the loaded machine,
/// 0.3 s with huge ones. Only a hint: with THP off nothing changes. Blocks of
/// [`mapped::MAPPED_BLOCK`] and more are advised whole (see there); a smaller one only in its
/// 2 MiB-aligned interior, since it may share a heap with others (where glibc mapped it on its
/// own, that splits the mapping and a later realloc copies it: at most 32 MiB).
const HUGE_BLOCK: usize = 4 << 20;

#[inline]
fn advise_huge_pages(p: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if size >= HUGE_BLOCK && !p.is_null() {
        advise_huge_pages_now(p, size);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, size);
}

#[cfg(target_os = "linux")]
#[cold]
fn advise_huge_pages_now(p: *mut u8, size: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = (p as usize).next_multiple_of(HUGE_PAGE);
    let end = (p as usize).saturating_add(size) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: [start, end) lies inside the block just allocated, which is mapped;
        // MADV_HUGEPAGE changes how its pages are backed, never their contents, and a failure
        // (THP disabled) is harmless, so the result is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// A new block of `layout` for `alloc` and `alloc_zeroed`: a mapping of its own where
/// [`mapped::is_mapped`] says so, else `system`'s (hinted to huge pages when large); counted
/// against this thread when it was made.
#[inline(always)]
fn new_block(layout: Layout, system: impl FnOnce() -> *mut u8) -> *mut u8 {
    let p = if mapped::is_mapped(layout) {
        mapped::map(layout.size())
    } else {
        let p = system();
        advise_huge_pages(p, layout.size());
        p
    };
    if !p.is_null() {
        count(cost(layout.size()));
    }
    p
}

// SAFETY: blocks of `mapped::MAPPED_BLOCK` and more with at most page alignment are anonymous
// mappings of their own (`mapped`: made, resized and unmapped by the kernel, the path chosen by
// the layout alone, so each block is freed the way it was made); every other call forwards to
// `System` unchanged. The additions are a huge-page hint on large blocks and a thread-local
// counter update (a `Cell<i64>` with a const initialiser and no destructor, so it neither
// allocates nor can be gone).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `layout` is passed on unchanged.
        new_block(layout, || unsafe { System.alloc(layout) })
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // (a fresh anonymous mapping reads as zeros, as `alloc_zeroed` promises)
        // SAFETY: as for `alloc`.
        new_block(layout, || unsafe { System.alloc_zeroed(layout) })
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped::is_mapped(layout) {
            // SAFETY: a block of this layout was made by `mapped::map`/`remap` with its size.
            unsafe { mapped::unmap(ptr, layout.size()) };
        } else {
            // SAFETY: `ptr` came from `System` with `layout`.
            unsafe { System.dealloc(ptr, layout) };
        }
        count(-cost(layout.size()));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let was_mapped = mapped::is_mapped(layout);
        let mapped_now = Layout::from_size_align(new_size, layout.align())
            .map(mapped::is_mapped)
            .unwrap_or(false);
        let p = match (was_mapped, mapped_now) {
            // SAFETY: `ptr` is a mapped block of layout.size() bytes (its layout says so).
            (true, true) => unsafe { mapped::remap(ptr, layout.size(), new_size) },
            // SAFETY: as `realloc`'s own contract, on the path `is_mapped` names.
            (true, false) | (false, true) => unsafe { mapped::move_across(ptr, layout, new_size) },
            (false, false) => {
                // SAFETY: `ptr` came from `System` with `layout`; `new_size` is the caller's.
                let p = unsafe { System.realloc(ptr, layout, new_size) };
                advise_huge_pages(p, new_size);
                p
            }
        };
        if !p.is_null() {
            count(cost(new_size) - cost(layout.size()));
        }
        p
    }
}

/// This thread's live heap bytes (see [`CountingAlloc`]).
pub(crate) fn thread_heap() -> i64 {
    THREAD_HEAP.try_with(Cell::get).unwrap_or(0)
}

/// Count `bytes` of memory that is not heap (a generator's stack) as this thread's, until the
/// same amount is charged back negative.
pub(crate) fn charge(bytes: i64) {
    count(bytes);
}

/// The run on this thread, from [`RunBudget::begin`] until the value drops (runs nest: the
/// outer one's budget comes back).
pub(crate) struct RunBudget {
    previous: (i64, u64),
}

impl RunBudget {
    pub(crate) fn begin(limit: u64) -> RunBudget {
        let previous = RUN.try_with(Cell::get).unwrap_or((0, u64::MAX));
        let _ = RUN.try_with(|r| r.set((thread_heap(), limit)));
        RunBudget { previous }
    }
}

impl Drop for RunBudget {
    fn drop(&mut self) {
        let _ = RUN.try_with(|r| r.set(self.previous));
    }
}

#[cfg(test)]
/// Bytes the run on this thread holds beyond what the thread held when it began.
pub(crate) fn run_used() -> u64 {
    let (base, _) = RUN.try_with(Cell::get).unwrap_or((0, u64::MAX));
    (thread_heap() - base).max(0) as u64
}

/// The run's limit (`u64::MAX` when no run is going on on this thread).
pub(crate) fn run_limit_now() -> u64 {
    RUN.try_with(Cell::get).map(|r| r.1).unwrap_or(u64::MAX)
}

/// May the run on this thread take `bytes` more?
#[inline]
pub(crate) fn can_allocate(bytes: u64) -> bool {
    let (base, limit) = RUN.try_with(Cell::get).unwrap_or((0, u64::MAX));
    if limit == u64::MAX {
        return true;
    }
    let used = (thread_heap() - base).max(0) as u64;
    used.checked_add(bytes).is_some_and(|t| t <= limit)
}

/// Is there room for `bytes` of working memory now: under the process's [`limit`] and within
/// the run on this thread ([`can_allocate`])? Ops that materialise or sort many elements ask
/// before they start, so a size the script decides (`torch.ones(1).expand(10**11).sort()`)
/// ends in an error instead of an aborting allocation, and before any work is done.
pub(crate) fn room_for(bytes: u64) -> bool {
    bytes <= limit() && can_allocate(bytes)
}

// ---------------------------------------------------------------- what the process may take

/// The limit a run starts with now: [`limit`], and three quarters of what `RLIMIT_AS`,
/// `RLIMIT_DATA` and the process's cgroups still allow.
pub(crate) fn run_limit() -> u64 {
    let mut out = limit();
    #[cfg(unix)]
    let left = [
        rlimit_left(libc::RLIMIT_AS),
        rlimit_left(libc::RLIMIT_DATA),
        cgroup_memory_left(Path::new("/sys/fs/cgroup"), &read("/proc/self/cgroup")),
    ];
    // Windows has neither resource limits nor cgroups: the budget is the limit alone.
    #[cfg(not(unix))]
    let left: [Option<u64>; 0] = [];
    for l in left.into_iter().flatten() {
        out = out.min(l / 4 * 3);
    }
    out
}

#[cfg(unix)]
fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The type getrlimit's resource argument has: glibc's enum, an int elsewhere (musl, macOS).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) type RlimitResource = libc::__rlimit_resource_t;
#[cfg(all(unix, not(all(target_os = "linux", target_env = "gnu"))))]
pub(crate) type RlimitResource = libc::c_int;

/// A resource limit minus what the process has of it now (`VmSize` for the address space,
/// heap and data for `RLIMIT_DATA`: both read as the virtual size, the larger), when there is
/// a limit.
#[cfg(unix)]
fn rlimit_left(resource: RlimitResource) -> Option<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(resource, &mut rl) } != 0 || rl.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    let statm = read("/proc/self/statm");
    let mut fields = statm.split_whitespace();
    let size: u64 = fields.next()?.parse().ok()?;
    let data: u64 = fields.nth(4).and_then(|d| d.parse().ok()).unwrap_or(size);
    let pages = if resource == libc::RLIMIT_DATA {
        data
    } else {
        size
    };
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Some(rl.rlim_cur.saturating_sub(pages.saturating_mul(page)))
}

/// The least memory any cgroup of this process still allows (limit minus usage), over the
/// cgroup /proc/self/cgroup names and each of its ancestors, under `root` (/sys/fs/cgroup):
/// v2 (`0::/path`, `memory.max` and `memory.current`) or v1 (the `memory` controller's line,
/// `memory/path/memory.limit_in_bytes` and `memory.usage_in_bytes`). None: no limit found.
pub(crate) fn cgroup_memory_left(root: &Path, proc_cgroup: &str) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in proc_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (base, max_file, cur_file) = if controllers.is_empty() {
            (root.to_path_buf(), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // the cgroup itself, then each ancestor up to the root of the hierarchy
        let mut dir = Some(Path::new(path.trim()));
        while let Some(d) = dir {
            let here = base.join(d.strip_prefix("/").unwrap_or(d));
            if let Some(left) = left_in(&here, max_file, cur_file) {
                least = Some(least.map_or(left, |l| l.min(left)));
            }
            dir = d.parent();
        }
        // inside a container the process's own cgroup is often mounted as the root itself
        if let Some(left) = left_in(&base, max_file, cur_file) {
            least = Some(least.map_or(left, |l| l.min(left)));
        }
    }
    least
}

/// `max - current` of one cgroup folder, when it has a limit.
fn left_in(dir: &Path, max_file: &str, cur_file: &str) -> Option<u64> {
    let max = std::fs::read_to_string(dir.join(max_file)).ok()?;
    let max: u64 = max.trim().parse().ok()?; // "max" (v2): no limit
    // v1 says "no limit" with a huge number
    if max >= 1 << 60 {
        return None;
    }
    let cur: u64 = std::fs::read_to_string(dir.join(cur_file))
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    Some(max.saturating_sub(cur))
}

/// `MemTotal:  24683664 kB` → bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `12345`, `512M`, `8G`, `8GiB`, `1.5 GB` → bytes (binary multiples throughout).
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let num: f64 = num.parse().ok()?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    let v = num * mult as f64;
    (v.is_finite() && v >= 1.0 && v < u64::MAX as f64).then_some(v as u64)
}

/// `3 GiB`, `512 MiB`, `1.5 GiB`: a budget as a learner reads it.
pub(crate) fn human_bytes(b: u64) -> String {
    let gib = b as f64 / (1u64 << 30) as f64;
    if gib >= 1.0 {
        let t = format!("{gib:.1}");
        format!("{} GiB", t.trim_end_matches(".0"))
    } else {
        format!("{} MiB", b >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("12345"), Some(12345));
        assert_eq!(parse_size("512M"), Some(512 << 20));
        assert_eq!(parse_size("8GiB"), Some(8 << 30));
        assert_eq!(parse_size(" 2 g "), Some(2 << 30));
        assert_eq!(parse_size("1.5G"), Some(3 << 29));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("0"), None);
        assert_eq!(
            mem_total("MemFree: 1 kB\nMemTotal:  2048 kB\n"),
            Some(2 << 20)
        );
        assert_eq!(human_bytes(3 << 30), "3 GiB");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
        assert_eq!(human_bytes(512 << 20), "512 MiB");
    }

    #[test]
    fn the_run_budget_sees_heap_growth_on_this_thread() {
        let run = RunBudget::begin(64 << 20);
        assert!(can_allocate(1 << 20));
        assert!(!can_allocate(65 << 20));
        let big: Vec<u8> = vec![1; 40 << 20];
        assert!(run_used() >= 40 << 20, "{}", run_used());
        assert!(!can_allocate(30 << 20));
        drop(big);
        assert!(can_allocate(30 << 20));
        charge(60 << 20);
        assert!(!can_allocate(8 << 20));
        charge(-(60 << 20));
        drop(run);
        assert!(can_allocate(u64::MAX / 2), "no run: no limit");
    }

    fn cgroup_tree(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cudatutor-cgroup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(dir: &Path, file: &str, text: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(file), text).unwrap();
    }

    #[test]
    fn a_nested_v2_cgroup_limit_is_seen_under_an_unlimited_root() {
        let root = cgroup_tree("v2");
        write(&root, "memory.max", "max\n");
        write(&root.join("user.slice"), "memory.max", "max\n");
        let run = root.join("user.slice/run-1.scope");
        write(&run, "memory.max", &format!("{}\n", 2u64 << 30));
        write(&run, "memory.current", &format!("{}\n", 512u64 << 20));
        let left = cgroup_memory_left(&root, "0::/user.slice/run-1.scope\n");
        assert_eq!(left, Some((2u64 << 30) - (512 << 20)));
        // a tighter ancestor wins
        write(
            &root.join("user.slice"),
            "memory.max",
            &format!("{}\n", 1u64 << 30),
        );
        write(&root.join("user.slice"), "memory.current", "0\n");
        let left = cgroup_memory_left(&root, "0::/user.slice/run-1.scope\n");
        assert_eq!(left, Some(1 << 30));
        assert_eq!(cgroup_memory_left(&root, "0::/elsewhere\n"), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_nested_v1_cgroup_limit_is_read_from_the_memory_controller() {
        let root = cgroup_tree("v1");
        let mem = root.join("memory");
        write(&mem, "memory.limit_in_bytes", "9223372036854771712\n");
        let job = mem.join("grading/job-7");
        write(&job, "memory.limit_in_bytes", &format!("{}\n", 2u64 << 30));
        write(&job, "memory.usage_in_bytes", &format!("{}\n", 1u64 << 30));
        let proc_cgroup = "12:cpu,cpuacct:/grading/job-7\n7:memory:/grading/job-7\n";
        assert_eq!(cgroup_memory_left(&root, proc_cgroup), Some(1 << 30));
        assert_eq!(cgroup_memory_left(&root, "12:cpu:/grading/job-7\n"), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}

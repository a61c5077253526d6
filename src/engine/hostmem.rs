//! The host-memory bound on tensor storage.
//!
//! The simulator keeps every element on the host in its own dtype, CUDA tensors included (their
//! *device* memory is the allocator's business, see allocator.rs). Without a bound a script
//! holding many mid-sized tensors — `[torch.ones(10**7) for _ in range(100)]`, or CUDA tensors
//! filling the 80 GiB card — would take the machine's memory until the process aborted on a
//! failed allocation or was killed. So each [`Runtime`](super::Runtime) has a budget:
//!
//! * The limit is `CUDATUTOR_HOST_MEM_LIMIT` (bytes, or with a `K`/`M`/`G`/`T` suffix, `KiB`,
//!   `GiB`… accepted), else half of `MemTotal` in /proc/meminfo, else 8 GiB. Read once.
//! * A CPU tensor whose PyTorch size (`numel × element_size`) exceeds the limit, or whose
//!   stored values would take the live total past it, raises PyTorch's allocation failure
//!   ([`cpu_alloc_error`]) — what `torch.zeros(10**12)` prints on a machine without 4 TB.
//! * A CUDA tensor is bounded by the simulated card (`torch.OutOfMemoryError`). If its
//!   values would take the host past the limit it is created anyway with its memory counted
//!   but its values not kept (a *phantom*); reading those raises
//!   NotImplementedError saying so. The card's OOM therefore still comes where PyTorch's would.
//!
//! Cost: one add at storage creation and one subtract at its drop (a `Cell`), and the storage
//! itself is reserved with `Vec::try_reserve_exact`, so an allocation the system refuses is
//! this same error rather than an abort.
//!
//! # One budget for the whole run
//! Tensors are not all a run allocates: the interpreter's lists, strings, dicts and
//! temporaries (`[0] * (5*10**7)` appended in a loop, `x.tolist()` kept a hundred times) take
//! memory too, and the process must stay under its address-space limit (`RLIMIT_AS`) and its
//! cgroup's memory limit, or a failed allocation aborts it. So:
//!
//! * [`CountingAlloc`], the process's global allocator, counts each thread's live heap bytes
//!   (one thread-local add per allocation and free).
//! * A run ([`RunBudget::begin`], held by the interpreter) takes the thread's count at its start
//!   as its baseline and [`run_limit`] as its limit: the smallest of the tensor limit above,
//!   three quarters of the address space left under `RLIMIT_AS`, and three quarters of the
//!   memory left under the cgroup limit (v2 `memory.max`, or v1 `memory.limit_in_bytes`).
//! * Before a big allocation the interpreter asks [`can_allocate`] and raises CPython's
//!   `MemoryError` when the answer is no; [`HostBudget::take`] asks it too, so a tensor past it
//!   gets PyTorch's allocation error. Memory that is not heap (generator stacks) is
//!   [`charge`]d to the same count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::rc::Rc;
use std::sync::OnceLock;

/// Used when /proc/meminfo cannot be read.
pub const FALLBACK_LIMIT: u64 = 8 << 30;

/// Live host bytes of one runtime's tensor values, and the most it may hold.
pub(crate) struct HostBudget {
    pub limit: u64,
    used: Cell<u64>,
}

/// A storage's share of the budget, returned when the storage drops.
pub(crate) struct HostBytes {
    budget: Rc<HostBudget>,
    bytes: u64,
}

impl Drop for HostBytes {
    fn drop(&mut self) {
        self.budget
            .used
            .set(self.budget.used.get().saturating_sub(self.bytes));
    }
}

impl HostBudget {
    pub fn new(limit: u64) -> Rc<HostBudget> {
        Rc::new(HostBudget {
            limit,
            used: Cell::new(0),
        })
    }
    pub fn used(&self) -> u64 {
        self.used.get()
    }
    /// Take `bytes` from the budget, or None when that would pass the limit (of tensor
    /// storage, or of the whole run: [`can_allocate`]).
    pub fn take(self: &Rc<Self>, bytes: u64) -> Option<HostBytes> {
        let total = self.used.get().checked_add(bytes)?;
        if total > self.limit || !can_allocate(bytes) {
            return None;
        }
        self.used.set(total);
        Some(HostBytes {
            budget: self.clone(),
            bytes,
        })
    }
}

/// The process default limit (see the module docs).
pub fn default_limit() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("CUDATUTOR_HOST_MEM_LIMIT")
            .ok()
            .and_then(|v| parse_size(&v))
            .or_else(|| {
                std::fs::read_to_string("/proc/meminfo")
                    .ok()
                    .and_then(|m| mem_total(&m))
                    .map(|total| total / 2)
            })
            .unwrap_or(FALLBACK_LIMIT)
    })
}

// ---------------------------------------------------------------- the run's budget

/// The global allocator: the system's, counting each thread's live heap bytes.
pub struct CountingAlloc;

thread_local! {
    /// Bytes this thread allocated and has not freed (frees of other threads' memory make it
    /// smaller; only its growth during a run matters).
    static THREAD_HEAP: Cell<i64> = const { Cell::new(0) };
    /// This thread's run: its baseline heap count and its limit (`u64::MAX`: no run).
    static RUN: Cell<(i64, u64)> = const { Cell::new((0, u64::MAX)) };
}

#[inline]
fn count(delta: i64) {
    let _ = THREAD_HEAP.try_with(|h| h.set(h.get().wrapping_add(delta)));
}

// SAFETY: every method forwards to `System` unchanged; the only addition is a thread-local
// counter update (a `Cell<i64>` with a const initialiser and no destructor, so it neither
// allocates nor can be gone).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as i64));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// This thread's live heap bytes (see [`CountingAlloc`]).
pub fn thread_heap() -> i64 {
    THREAD_HEAP.try_with(Cell::get).unwrap_or(0)
}

/// Count `bytes` of memory that is not heap (a generator's stack) as this thread's, until the
/// same amount is charged back negative.
pub fn charge(bytes: i64) {
    count(bytes);
}

/// The run on this thread, from [`RunBudget::begin`] until the value drops (runs nest: the
/// outer one's budget comes back).
pub struct RunBudget {
    previous: (i64, u64),
}

impl RunBudget {
    pub fn begin(limit: u64) -> RunBudget {
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

/// Bytes the run on this thread holds beyond what the thread held when it began.
pub fn run_used() -> u64 {
    let (base, _) = RUN.try_with(Cell::get).unwrap_or((0, u64::MAX));
    (thread_heap() - base).max(0) as u64
}

/// The run's limit (`u64::MAX` when no run is going on on this thread).
pub fn run_limit_now() -> u64 {
    RUN.try_with(Cell::get).map(|r| r.1).unwrap_or(u64::MAX)
}

/// May the run on this thread take `bytes` more?
#[inline]
pub fn can_allocate(bytes: u64) -> bool {
    let (base, limit) = RUN.try_with(Cell::get).unwrap_or((0, u64::MAX));
    if limit == u64::MAX {
        return true;
    }
    let used = (thread_heap() - base).max(0) as u64;
    used.checked_add(bytes).is_some_and(|t| t <= limit)
}

/// The limit a run starts with now: the tensor limit ([`default_limit`]), three quarters of
/// the address space left under `RLIMIT_AS`, three quarters of what the cgroup still allows.
pub fn run_limit() -> u64 {
    let mut limit = default_limit();
    if let Some(left) = address_space_left() {
        limit = limit.min(left / 4 * 3);
    }
    if let Some(left) = cgroup_memory_left() {
        limit = limit.min(left / 4 * 3);
    }
    limit
}

/// `RLIMIT_AS` minus the address space in use (`VmSize`), when there is a limit.
fn address_space_left() -> Option<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } != 0
        || rl.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Some((rl.rlim_cur as u64).saturating_sub(pages.saturating_mul(page)))
}

/// The cgroup's memory limit minus its usage (v2, else v1), when there is a limit.
fn cgroup_memory_left() -> Option<u64> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let (max, cur) = match read("/sys/fs/cgroup/memory.max") {
        Some(max) => (max, read("/sys/fs/cgroup/memory.current")?),
        None => (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
        ),
    };
    let max: u64 = max.trim().parse().ok()?;
    let cur: u64 = cur.trim().parse().ok()?;
    // v1 says "no limit" with a huge number.
    if max >= 1 << 60 {
        return None;
    }
    Some(max.saturating_sub(cur))
}

/// `MemTotal:  24683664 kB` → bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `12345`, `512M`, `8G`, `8GiB`, `1.5 GB` → bytes (binary multiples throughout).
pub fn parse_size(s: &str) -> Option<u64> {
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

/// PyTorch's CPU allocation failure on Linux (c10/core/impl/alloc_cpu.cpp, posix_memalign
/// failing with ENOMEM), for `nbytes` as PyTorch counts them.
pub fn cpu_alloc_error(nbytes: u64) -> String {
    format!(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate memory)"
    )
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

    #[test]
    fn the_budget_counts_live_bytes() {
        let b = HostBudget::new(100);
        let x = b.take(60).unwrap();
        assert!(b.take(50).is_none());
        drop(x);
        assert_eq!(b.used(), 0);
        assert!(b.take(100).is_some());
    }
}

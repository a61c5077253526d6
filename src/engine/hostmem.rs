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
    /// Take `bytes` from the budget, or None when that would pass the limit.
    pub fn take(self: &Rc<Self>, bytes: u64) -> Option<HostBytes> {
        let total = self.used.get().checked_add(bytes)?;
        if total > self.limit {
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
    fn the_budget_counts_live_bytes() {
        let b = HostBudget::new(100);
        let x = b.take(60).unwrap();
        assert!(b.take(50).is_none());
        drop(x);
        assert_eq!(b.used(), 0);
        assert!(b.take(100).is_some());
    }
}

//! The host-memory bound on tensor storage.
//!
//! The simulator keeps every element on the host in its own dtype, CUDA tensors included (their
//! *device* memory is the allocator's business, see allocator.rs). Without a bound a script
//! holding many mid-sized tensors — `[torch.ones(10**7) for _ in range(100)]`, or CUDA tensors
//! filling the 80 GiB card — would take the machine's memory until the process aborted on a
//! failed allocation or was killed. So each [`Runtime`](super::Runtime) has a budget:
//!
//! * The limit is [`crate::budget::limit`]: `--memory-limit`, `CUDATUTOR_MEMORY_LIMIT`, else
//!   half of `MemTotal` but at most 3 GiB. Read once.
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
//! Tensors are not all a run allocates: the interpreter's lists, strings and temporaries take
//! memory too. The run's count and its limit (RLIMIT_AS, RLIMIT_DATA, nested cgroups) live in
//! [`crate::budget`], beneath both the engine and the interpreter; [`HostBudget::take`] asks
//! it too, so a tensor past it gets PyTorch's allocation error.

use std::cell::Cell;
use std::rc::Rc;

// The run's count and limit live beneath the engine, shared with the interpreter.
pub(crate) use crate::budget::{can_allocate, room_for, run_limit_now};

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
    pub(crate) fn new(limit: u64) -> Rc<HostBudget> {
        Rc::new(HostBudget {
            limit,
            used: Cell::new(0),
        })
    }
    pub(crate) fn used(&self) -> u64 {
        self.used.get()
    }
    /// Take `bytes` from the budget, or None when that would pass the limit (of tensor
    /// storage, or of the whole run: [`can_allocate`]).
    pub(crate) fn take(self: &Rc<Self>, bytes: u64) -> Option<HostBytes> {
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

/// The process's limit (crate::budget::limit): tensor values and the whole run share it.
pub(crate) fn default_limit() -> u64 {
    crate::budget::limit()
}

/// PyTorch's CPU allocation failure on Linux (c10/core/impl/alloc_cpu.cpp, posix_memalign
/// failing with ENOMEM), for `nbytes` as PyTorch counts them.
pub(crate) fn cpu_alloc_error(nbytes: u64) -> String {
    format!(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate memory)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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

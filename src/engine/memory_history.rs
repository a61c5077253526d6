//! `torch.cuda.memory._record_memory_history` and `torch.cuda.memory._snapshot()`: what the
//! caching allocator did (a ring of trace entries) and what it holds now (segments and their
//! blocks), with the script line that allocated each live block.
//!
//! The names follow PyTorch 2.15's snapshot (torch/cuda/memory.py `_snapshot`): trace actions
//! `alloc`, `free_requested`, `free_completed`, `segment_alloc`, `segment_free`, `oom`; block
//! states `active_allocated` and `inactive`; segment types `small` and `large`. cudatutor keeps
//! one frame per entry, the script line, where PyTorch keeps the whole Python and C++ stack.

use std::collections::VecDeque;

/// One action of the allocator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEntry {
    pub action: &'static str,
    /// The block's or segment's address (for `oom`, 0: PyTorch records none).
    pub addr: u64,
    pub size: u64,
    /// The script line that caused it (0 when unknown).
    pub line: u32,
    /// For `oom`: the bytes the device still had free.
    pub device_free: Option<u64>,
}

/// The recording `_record_memory_history(enabled=...)` switched on.
#[derive(Debug, Clone)]
pub struct History {
    /// `"all"`: keep the trace of actions too; `"state"`: only the lines of live blocks.
    pub trace: bool,
    pub max_entries: usize,
    pub entries: VecDeque<TraceEntry>,
}

impl History {
    pub fn new(trace: bool, max_entries: usize) -> History {
        History {
            trace,
            max_entries: max_entries.max(1),
            entries: VecDeque::new(),
        }
    }

    /// Appends an entry, dropping the oldest past `max_entries` (PyTorch's ring buffer).
    pub fn push(&mut self, e: TraceEntry) {
        if !self.trace {
            return;
        }
        if self.entries.len() >= self.max_entries {
            self.entries.pop_front();
        }
        self.entries.push_back(e);
    }
}

/// A block of a segment in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSnapshot {
    pub address: u64,
    pub size: u64,
    pub requested_size: u64,
    /// `active_allocated` or `inactive`.
    pub state: &'static str,
    /// The line that allocated it, when history was on at the time.
    pub line: Option<u32>,
}

/// A segment (one cudaMalloc) in a snapshot, its blocks in address order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentSnapshot {
    pub address: u64,
    pub total_size: u64,
    pub allocated_size: u64,
    pub active_size: u64,
    pub requested_size: u64,
    /// `small` or `large`.
    pub segment_type: &'static str,
    pub blocks: Vec<BlockSnapshot>,
}

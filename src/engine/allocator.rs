//! PyTorch caching-allocator rules (c10/cuda/CUDACachingAllocator.cpp), shared by the sim and
//! cuda backends. The allocator hands out blocks carved from segments it gets from a
//! [`SegmentSource`] (the sim: a capacity counter; the cuda backend: cuMemAlloc/cuMemFree).
//!
//! Rules reproduced (pytorch-facts.md): sizes rounded up to 512 B; requests ≤ 1 MiB use the
//! small pool and 2 MiB segments; requests in (1 MiB, 10 MiB) use 20 MiB segments; larger ones a
//! segment rounded up to 2 MiB; best fit within the pool; a block is split when the remainder
//! is ≥ 512 B (small pool) or > 1 MiB (large pool); a freed block coalesces with free
//! neighbours of its segment; `empty_cache` releases wholly free segments; when the source
//! refuses a segment, all wholly free cached segments are released and the request retried
//! once, then `torch.OutOfMemoryError` is raised with PyTorch's message.

use super::memory_history::{BlockSnapshot, History, SegmentSnapshot, TraceEntry};
use std::collections::BTreeSet;

pub(crate) const K_MIN_BLOCK_SIZE: u64 = 512;
pub(crate) const K_SMALL_SIZE: u64 = 1 << 20;
pub(crate) const K_SMALL_BUFFER: u64 = 2 << 20;
pub(crate) const K_LARGE_BUFFER: u64 = 20 << 20;
pub(crate) const K_MIN_LARGE_ALLOC: u64 = 10 << 20;
pub(crate) const K_ROUND_LARGE: u64 = 2 << 20;

/// `round_size`: every request is a multiple of 512 bytes (at least 512).
pub fn round_size(size: u64) -> u64 {
    if size < K_MIN_BLOCK_SIZE {
        K_MIN_BLOCK_SIZE
    } else {
        size.div_ceil(K_MIN_BLOCK_SIZE) * K_MIN_BLOCK_SIZE
    }
}

/// `get_allocation_size`: the segment size requested from the device for a rounded size.
pub fn allocation_size(size: u64) -> u64 {
    if size <= K_SMALL_SIZE {
        K_SMALL_BUFFER
    } else if size < K_MIN_LARGE_ALLOC {
        K_LARGE_BUFFER
    } else {
        size.div_ceil(K_ROUND_LARGE) * K_ROUND_LARGE
    }
}

/// PyTorch's `format_size` (used in OOM messages): `N bytes` up to 1024, then `X.XX KiB`,
/// `X.XX MiB`, `X.XX GiB` (each unit up to and including its power of 1024; the size goes
/// through a C++ `float` as in PyTorch).
pub fn format_size(size: u64) -> String {
    if size <= 1024 {
        format!("{size} bytes")
    } else if size <= 1048576 {
        format!("{:.2} KiB", (size as f32) as f64 / 1024.0)
    } else if size <= 1073741824 {
        format!("{:.2} MiB", (size as f32) as f64 / 1048576.0)
    } else {
        format!("{:.2} GiB", (size as f32) as f64 / 1073741824.0)
    }
}

/// Where segments come from: the simulated device's capacity, or cuMemAlloc on a real GPU.
pub trait SegmentSource {
    /// Reserve `size` bytes of device memory; the address, or None when the device is full.
    fn malloc(&mut self, size: u64) -> Option<u64>;
    fn free(&mut self, addr: u64, size: u64);
    /// `(free, total)` as cudaMemGetInfo reports them.
    fn mem_info(&self) -> (u64, u64);
    /// Why the last `malloc` returned None when the device refused for a reason other than a
    /// full memory (PyTorch raises that as the CUDA error it is, never as out of memory).
    fn take_failure(&mut self) -> Option<super::error::EngineError> {
        None
    }
}

/// A simulated device memory: a capacity counter and a bump address.
#[derive(Debug, Clone)]
pub(crate) struct SimSegments {
    pub capacity: u64,
    used: u64,
    next_addr: u64,
}

impl SimSegments {
    pub(crate) fn new(capacity: u64) -> Self {
        SimSegments {
            capacity,
            used: 0,
            next_addr: 0x7f00_0000_0000,
        }
    }
}

impl SegmentSource for SimSegments {
    fn malloc(&mut self, size: u64) -> Option<u64> {
        if self.used.saturating_add(size) > self.capacity {
            return None;
        }
        self.used += size;
        let a = self.next_addr;
        self.next_addr += size.div_ceil(K_SMALL_BUFFER) * K_SMALL_BUFFER;
        Some(a)
    }
    fn free(&mut self, _addr: u64, size: u64) {
        self.used -= size;
    }
    fn mem_info(&self) -> (u64, u64) {
        (self.capacity - self.used, self.capacity)
    }
}

/// One counter of `torch.cuda.memory_stats()`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stat {
    pub current: i64,
    pub peak: i64,
    pub allocated: i64,
    pub freed: i64,
}

impl Stat {
    fn increase(&mut self, n: i64) {
        self.current += n;
        self.peak = self.peak.max(self.current);
        self.allocated += n;
    }
    fn decrease(&mut self, n: i64) {
        self.current -= n;
        self.freed += n;
    }
    fn reset_peak(&mut self) {
        self.peak = self.current;
    }
}

/// A stat for the aggregate, the small pool and the large pool (`all`, `small_pool`,
/// `large_pool` in `memory_stats()`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatArray {
    pub all: Stat,
    pub small: Stat,
    pub large: Stat,
}

impl StatArray {
    /// The stat of the small or the large pool.
    fn pool(&mut self, small: bool) -> &mut Stat {
        if small {
            &mut self.small
        } else {
            &mut self.large
        }
    }
    fn inc(&mut self, small: bool, n: i64) {
        self.all.increase(n);
        self.pool(small).increase(n)
    }
    fn dec(&mut self, small: bool, n: i64) {
        self.all.decrease(n);
        self.pool(small).decrease(n)
    }
    fn change(&mut self, small: bool, n: i64) {
        if n > 0 {
            self.inc(small, n)
        } else if n < 0 {
            self.dec(small, -n)
        }
    }
    fn reset_peak(&mut self) {
        self.all.reset_peak();
        self.small.reset_peak();
        self.large.reset_peak();
    }
}

/// The allocator's statistics (the subset of `memory_stats()` PyTorch's summary prints).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryStats {
    pub allocation: StatArray,
    pub segment: StatArray,
    pub active: StatArray,
    pub inactive_split: StatArray,
    pub allocated_bytes: StatArray,
    pub reserved_bytes: StatArray,
    pub active_bytes: StatArray,
    pub inactive_split_bytes: StatArray,
    pub requested_bytes: StatArray,
    pub num_alloc_retries: u64,
    pub num_ooms: u64,
}

/// Handle of an allocated block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockId(usize);

#[derive(Debug, Clone)]
struct Block {
    addr: u64,
    size: u64,
    requested: u64,
    allocated: bool,
    small: bool,
    prev: Option<usize>,
    next: Option<usize>,
    /// The script line that allocated it, while memory history is recorded.
    line: Option<u32>,
}

impl Block {
    fn is_split(&self) -> bool {
        self.prev.is_some() || self.next.is_some()
    }
}

/// An out-of-memory failure: the message is PyTorch's, ready for `torch.OutOfMemoryError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    pub message: String,
    /// The device's own error instead, when it refused for another reason (see
    /// [`SegmentSource::take_failure`]).
    pub other: Option<super::error::EngineError>,
}

/// One device's caching allocator.
pub struct CachingAllocator {
    device: u32,
    source: Box<dyn SegmentSource>,
    blocks: Vec<Option<Block>>,
    spare: Vec<usize>,
    /// Free blocks per pool, ordered by (size, address): best fit is the first ≥ request.
    small_free: BTreeSet<(u64, u64, usize)>,
    large_free: BTreeSet<(u64, u64, usize)>,
    stats: MemoryStats,
    /// Per-process cap (`torch.cuda.set_per_process_memory_fraction`, the classroom cap).
    pub allowed_max: Option<u64>,
    /// `torch.cuda.memory._record_memory_history`: None when off.
    pub history: Option<History>,
    /// The script line the next allocator call belongs to (the runtime sets it).
    pub trace_line: u32,
}

impl CachingAllocator {
    pub fn new(device: u32, source: Box<dyn SegmentSource>) -> Self {
        CachingAllocator {
            device,
            source,
            blocks: Vec::new(),
            spare: Vec::new(),
            small_free: BTreeSet::new(),
            large_free: BTreeSet::new(),
            stats: MemoryStats::default(),
            allowed_max: None,
            history: None,
            trace_line: 0,
        }
    }

    /// A simulated device of `capacity` bytes.
    pub fn sim(device: u32, capacity: u64) -> Self {
        Self::new(device, Box::new(SimSegments::new(capacity)))
    }

    pub fn stats(&self) -> &MemoryStats {
        &self.stats
    }
    /// `torch.cuda.memory_allocated()`.
    pub fn allocated(&self) -> u64 {
        self.stats.allocated_bytes.all.current as u64
    }
    /// `torch.cuda.memory_reserved()`.
    pub fn reserved(&self) -> u64 {
        self.stats.reserved_bytes.all.current as u64
    }
    /// `torch.cuda.max_memory_allocated()`.
    pub fn peak_allocated(&self) -> u64 {
        self.stats.allocated_bytes.all.peak as u64
    }
    pub(crate) fn peak_reserved(&self) -> u64 {
        self.stats.reserved_bytes.all.peak as u64
    }
    /// `(free, total)` of the device (`torch.cuda.mem_get_info()`).
    pub fn mem_info(&self) -> (u64, u64) {
        self.source.mem_info()
    }
    /// `torch.cuda.reset_peak_memory_stats()`.
    pub(crate) fn reset_peak(&mut self) {
        let s = &mut self.stats;
        for a in [
            &mut s.allocation,
            &mut s.segment,
            &mut s.active,
            &mut s.inactive_split,
            &mut s.allocated_bytes,
            &mut s.reserved_bytes,
            &mut s.active_bytes,
            &mut s.inactive_split_bytes,
            &mut s.requested_bytes,
        ] {
            a.reset_peak();
        }
    }

    fn pool(&mut self, small: bool) -> &mut BTreeSet<(u64, u64, usize)> {
        if small {
            &mut self.small_free
        } else {
            &mut self.large_free
        }
    }

    fn new_block(&mut self, b: Block) -> usize {
        if let Some(i) = self.spare.pop() {
            self.blocks[i] = Some(b);
            i
        } else {
            self.blocks.push(Some(b));
            self.blocks.len() - 1
        }
    }

    fn blk(&self, i: usize) -> &Block {
        self.blocks[i].as_ref().expect("live block")
    }
    fn blk_mut(&mut self, i: usize) -> &mut Block {
        self.blocks[i].as_mut().expect("live block")
    }

    fn insert_free(&mut self, i: usize) {
        let (size, addr, small) = {
            let b = self.blk(i);
            (b.size, b.addr, b.small)
        };
        self.pool(small).insert((size, addr, i));
    }
    fn remove_free(&mut self, i: usize) {
        let (size, addr, small) = {
            let b = self.blk(i);
            (b.size, b.addr, b.small)
        };
        self.pool(small).remove(&(size, addr, i));
    }

    fn alloc_segment(&mut self, size: u64, small: bool) -> Option<usize> {
        if let Some(max) = self.allowed_max
            && self.reserved().saturating_add(size) > max
        {
            return None;
        }
        let addr = self.source.malloc(size)?;
        self.stats.segment.inc(small, 1);
        self.stats.reserved_bytes.inc(small, size as i64);
        self.trace("segment_alloc", addr, size, None);
        Some(self.new_block(Block {
            addr,
            size,
            requested: 0,
            allocated: false,
            small,
            prev: None,
            next: None,
            line: None,
        }))
    }

    /// Release every wholly free segment of both pools (`release_cached_blocks`).
    fn release_cached_blocks(&mut self) -> bool {
        let candidates: Vec<usize> = self
            .small_free
            .iter()
            .chain(self.large_free.iter())
            .map(|&(_, _, i)| i)
            .filter(|&i| !self.blk(i).is_split())
            .collect();
        for i in candidates {
            self.remove_free(i);
            let b = self.blocks[i].take().expect("live block");
            self.spare.push(i);
            self.source.free(b.addr, b.size);
            self.trace("segment_free", b.addr, b.size, None);
            self.stats.segment.dec(b.small, 1);
            self.stats.reserved_bytes.dec(b.small, b.size as i64);
        }
        true
    }

    /// `torch.cuda.empty_cache()`.
    pub fn empty_cache(&mut self) {
        self.release_cached_blocks();
    }

    /// Allocate `orig_size` bytes (the tensor's nbytes).
    pub fn malloc(&mut self, orig_size: u64) -> Result<BlockId, OutOfMemory> {
        let size = round_size(orig_size);
        let small = size <= K_SMALL_SIZE;
        let alloc_size = allocation_size(size);
        let found = self
            .pool(small)
            .range((size, 0, 0)..)
            .next()
            .map(|&(_, _, i)| i);
        let block = match found {
            Some(i) => {
                self.remove_free(i);
                i
            }
            None => match self.alloc_segment(alloc_size, small) {
                Some(i) => i,
                None => {
                    self.release_cached_blocks();
                    self.stats.num_alloc_retries += 1;
                    match self.alloc_segment(alloc_size, small) {
                        Some(i) => i,
                        None => {
                            let other = self.source.take_failure();
                            let mut e = self.oom(alloc_size);
                            e.other = other;
                            return Err(e);
                        }
                    }
                }
            },
        };
        // Split when the remainder is large enough for its pool.
        let remaining = self.blk(block).size - size;
        let split = if small {
            remaining >= K_MIN_BLOCK_SIZE
        } else {
            remaining > K_SMALL_SIZE
        };
        let already_split = self.blk(block).is_split();
        if split {
            let (addr, next) = {
                let b = self.blk(block);
                (b.addr, b.next)
            };
            let rest = self.new_block(Block {
                addr: addr + size,
                size: remaining,
                requested: 0,
                allocated: false,
                small,
                prev: Some(block),
                next,
                line: None,
            });
            if let Some(n) = next {
                self.blk_mut(n).prev = Some(rest);
            }
            {
                let b = self.blk_mut(block);
                b.size = size;
                b.next = Some(rest);
            }
            self.insert_free(rest);
            if already_split {
                self.stats.inactive_split_bytes.dec(small, size as i64);
            } else {
                self.stats.inactive_split_bytes.inc(small, remaining as i64);
                self.stats.inactive_split.inc(small, 1);
            }
        } else if already_split {
            let s = self.blk(block).size as i64;
            self.stats.inactive_split_bytes.dec(small, s);
            self.stats.inactive_split.dec(small, 1);
        }
        let line = self.history.as_ref().map(|_| self.trace_line);
        let (bsize, baddr) = {
            let b = self.blk_mut(block);
            b.allocated = true;
            b.requested = orig_size;
            b.line = line;
            (b.size, b.addr)
        };
        self.trace("alloc", baddr, bsize, None);
        let st = &mut self.stats;
        st.allocation.inc(small, 1);
        st.allocated_bytes.inc(small, bsize as i64);
        st.active.inc(small, 1);
        st.active_bytes.inc(small, bsize as i64);
        st.requested_bytes.inc(small, orig_size as i64);
        Ok(BlockId(block))
    }

    /// The device address of a block (a real pointer when the segments come from a device).
    pub(crate) fn block_addr(&self, id: BlockId) -> u64 {
        self.blk(id.0).addr
    }

    /// Return a block to its pool, coalescing with free neighbours.
    pub fn free(&mut self, id: BlockId) {
        let i = id.0;
        let (small, size, requested, addr) = {
            let b = self.blk_mut(i);
            b.allocated = false;
            b.line = None;
            (b.small, b.size, b.requested, b.addr)
        };
        // one stream: a freed block is reusable at once. No line: a tensor is freed when its
        // last reference goes (`del`, a rebinding), which the allocator does not see
        let line = std::mem::take(&mut self.trace_line);
        self.trace("free_requested", addr, size, None);
        self.trace("free_completed", addr, size, None);
        self.trace_line = line;
        self.stats.allocation.dec(small, 1);
        self.stats.allocated_bytes.dec(small, size as i64);
        let mut net_blocks: i64 = 0;
        let mut net_size: i64 = 0;
        for cand in [self.blk(i).prev, self.blk(i).next] {
            let Some(c) = cand else { continue };
            if self.blk(c).allocated {
                continue;
            }
            self.remove_free(c);
            let cb = self.blocks[c].take().expect("live block");
            self.spare.push(c);
            if cb.next == Some(i) {
                // c is before i
                {
                    let b = self.blk_mut(i);
                    b.addr = cb.addr;
                    b.prev = cb.prev;
                }
                if let Some(p) = cb.prev {
                    self.blk_mut(p).next = Some(i);
                }
            } else {
                self.blk_mut(i).next = cb.next;
                if let Some(n) = cb.next {
                    self.blk_mut(n).prev = Some(i);
                }
            }
            self.blk_mut(i).size += cb.size;
            net_blocks -= 1;
            net_size -= cb.size as i64;
        }
        if self.blk(i).is_split() {
            net_blocks += 1;
            net_size += self.blk(i).size as i64;
        }
        self.insert_free(i);
        let st = &mut self.stats;
        st.inactive_split.change(small, net_blocks);
        st.inactive_split_bytes.change(small, net_size);
        st.active.dec(small, 1);
        st.active_bytes.dec(small, size as i64);
        st.requested_bytes.dec(small, requested as i64);
    }

    fn oom(&mut self, alloc_size: u64) -> OutOfMemory {
        self.stats.num_ooms += 1;
        let (free, total) = self.source.mem_info();
        self.trace("oom", 0, alloc_size, Some(free));
        let allocated = self.allocated();
        let reserved = self.reserved();
        let in_use = total - free;
        let allowed = match self.allowed_max {
            Some(m) => format!("{} allowed; ", format_size(m)),
            None => String::new(),
        };
        OutOfMemory {
            other: None,
            message: format!(
                "CUDA out of memory. Tried to allocate {}. GPU {} has a total capacity of {} of which {} is free. \
Including non-PyTorch memory, this process has {} memory in use. {}Of the allocated memory {} is allocated by PyTorch, \
and {} is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting \
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  \
(https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)",
                format_size(alloc_size),
                self.device,
                format_size(total),
                format_size(free),
                format_size(in_use),
                allowed,
                format_size(allocated),
                format_size(reserved - allocated),
            ),
        }
    }

    /// Records an action while memory history is on.
    fn trace(&mut self, action: &'static str, addr: u64, size: u64, device_free: Option<u64>) {
        let line = self.trace_line;
        if let Some(h) = self.history.as_mut() {
            h.push(TraceEntry {
                action,
                addr,
                size,
                line,
                device_free,
            });
        }
    }

    /// `_record_memory_history(enabled)`: `None` switches it off (and forgets the trace),
    /// `Some(true)` records the trace of actions too (`"all"`), `Some(false)` only the lines of
    /// live blocks (`"state"`).
    pub(crate) fn record_history(&mut self, enabled: Option<bool>, max_entries: usize) {
        self.history = enabled.map(|trace| History::new(trace, max_entries));
    }

    /// `torch.cuda.memory._snapshot()`: every segment with its blocks, in address order.
    pub fn snapshot(&self) -> Vec<SegmentSnapshot> {
        let mut heads: Vec<usize> = (0..self.blocks.len())
            .filter(|&i| self.blocks[i].as_ref().is_some_and(|b| b.prev.is_none()))
            .collect();
        heads.sort_by_key(|&i| self.blk(i).addr);
        heads
            .into_iter()
            .map(|head| {
                let mut blocks = Vec::new();
                let mut cur = Some(head);
                while let Some(i) = cur {
                    let b = self.blk(i);
                    blocks.push(BlockSnapshot {
                        address: b.addr,
                        size: b.size,
                        requested_size: if b.allocated { b.requested } else { 0 },
                        state: if b.allocated {
                            "active_allocated"
                        } else {
                            "inactive"
                        },
                        line: b.line,
                    });
                    cur = b.next;
                }
                let live = |f: fn(&BlockSnapshot) -> u64| {
                    blocks
                        .iter()
                        .filter(|b| b.state == "active_allocated")
                        .map(f)
                        .sum::<u64>()
                };
                let allocated = live(|b| b.size);
                SegmentSnapshot {
                    address: self.blk(head).addr,
                    total_size: blocks.iter().map(|b| b.size).sum(),
                    allocated_size: allocated,
                    active_size: allocated,
                    requested_size: live(|b| b.requested_size),
                    segment_type: if self.blk(head).small {
                        "small"
                    } else {
                        "large"
                    },
                    blocks,
                }
            })
            .collect()
    }

    /// The recorded trace, oldest first (empty when history is off or `"state"` only).
    pub(crate) fn trace_entries(&self) -> Vec<TraceEntry> {
        self.history
            .as_ref()
            .map(|h| h.entries.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// `torch.cuda.memory_summary()`, in PyTorch's layout (torch/cuda/memory.py).
    pub fn summary(&self, abbreviated: bool) -> String {
        /// torch's `_format_size`/`_format_count` scaling: `v` divided by `base` (and the
        /// next prefix taken) for as long as the preferred value is at least `threshold`.
        fn scaled(
            v: i64,
            pref: i64,
            prefixes: &[&'static str],
            base: i64,
            threshold: f64,
        ) -> (i64, &'static str) {
            let mut prefix = prefixes[0];
            let (mut v, mut pref) = (v, pref as f64);
            for p in &prefixes[1..] {
                if pref < threshold {
                    break;
                }
                prefix = p;
                v = v.div_euclid(base);
                pref /= base as f64;
            }
            (v, prefix)
        }
        fn fmt_size(sz: i64, pref: i64) -> String {
            let prefixes = ["B  ", "KiB", "MiB", "GiB", "TiB", "PiB"];
            let (sz, prefix) = scaled(sz, pref, &prefixes, 1024, 768.0 * 1024.0);
            format!("{sz:6} {prefix}")
        }
        fn fmt_count(c: i64, pref: i64) -> String {
            let (c, prefix) = scaled(c, pref, &[" ", "K", "M"], 1000, 750.0 * 1000.0);
            format!("{c:7} {prefix} ")
        }
        let s = &self.stats;
        type Fmt = fn(i64, i64) -> String;
        let metrics: [(&StatArray, &str, Fmt); 9] = [
            (&s.allocated_bytes, "Allocated memory", fmt_size),
            (&s.active_bytes, "Active memory", fmt_size),
            (&s.requested_bytes, "Requested memory", fmt_size),
            (&s.reserved_bytes, "GPU reserved memory", fmt_size),
            (&s.inactive_split_bytes, "Non-releasable memory", fmt_size),
            (&s.allocation, "Allocations", fmt_count),
            (&s.active, "Active allocs", fmt_count),
            (&s.segment, "GPU reserved segments", fmt_count),
            (&s.inactive_split, "Non-releasable allocs", fmt_count),
        ];
        let mut lines: Vec<String> = Vec::new();
        lines.push("=".repeat(75));
        lines.push(format!(
            " {:16} PyTorch CUDA memory summary, device ID {:<17} ",
            "", self.device
        ));
        lines.push("-".repeat(75));
        lines.push(format!(
            "  {:9} CUDA OOMs: {:<12} | {:6} cudaMalloc retries: {:<8}  ",
            "", s.num_ooms, "", s.num_alloc_retries
        ));
        lines.push("=".repeat(75));
        lines.push(
            "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  "
                .to_string(),
        );
        for (arr, name, f) in metrics {
            lines.push("-".repeat(75));
            let mut subs: Vec<(&Stat, &str)> = vec![(&arr.all, name)];
            if !abbreviated {
                subs.push((&arr.large, "      from large pool"));
                subs.push((&arr.small, "      from small pool"));
            }
            let p = arr.all;
            for (st, sname) in subs {
                lines.push(format!(
                    " {:<21} | {} | {} | {} | {} ",
                    sname,
                    f(st.current, p.current),
                    f(st.peak, p.peak),
                    f(st.allocated, p.allocated),
                    f(st.freed, p.freed)
                ));
            }
        }
        for name in ["Oversize allocations", "Oversize GPU segments"] {
            lines.push("-".repeat(75));
            lines.push(format!(
                " {:<21} | {} | {} | {} | {} ",
                name,
                fmt_count(0, 0),
                fmt_count(0, 0),
                fmt_count(0, 0),
                fmt_count(0, 0)
            ));
        }
        lines.push("=".repeat(75));
        format!("|{}|\n", lines.join("|\n|"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const MIB: u64 = 1 << 20;

    #[test]
    fn small_tensor() {
        let mut a = CachingAllocator::sim(0, 80 << 30);
        let b = a.malloc(40).unwrap();
        assert_eq!((a.allocated(), a.reserved()), (512, 2097152));
        a.free(b);
        assert_eq!((a.allocated(), a.reserved()), (0, 2097152));
        a.empty_cache();
        assert_eq!((a.allocated(), a.reserved()), (0, 0));
    }

    #[test]
    fn large_split_and_coalesce() {
        let mut a = CachingAllocator::sim(0, 80 << 30);
        let x = a.malloc(3 * MIB).unwrap();
        assert_eq!(a.reserved(), 20 * MIB);
        let y = a.malloc(12 * MIB).unwrap();
        assert_eq!(a.reserved(), 20 * MIB);
        assert_eq!(a.allocated(), 15 * MIB);
        a.free(x);
        a.free(y);
        assert_eq!(a.stats().inactive_split.all.current, 0);
        a.empty_cache();
        assert_eq!(a.reserved(), 0);
    }

    #[test]
    fn unsplit_remainder_counts() {
        let mut a = CachingAllocator::sim(0, 80 << 30);
        // 19.5 MiB in a 20 MiB segment: remainder 0.5 MiB ≤ 1 MiB, not split.
        let _x = a.malloc(19 * MIB + MIB / 2).unwrap();
        assert_eq!(a.allocated(), 20 * MIB);
        // ≥ 10 MiB rounds the segment to 2 MiB.
        let _y = a.malloc(11 * MIB).unwrap();
        assert_eq!(a.reserved(), 32 * MIB);
    }

    #[test]
    fn peak() {
        let mut a = CachingAllocator::sim(0, 80 << 30);
        let x = a.malloc(4 * MIB).unwrap();
        a.free(x);
        assert_eq!(a.peak_allocated(), 4 * MIB);
        a.reset_peak();
        assert_eq!(a.peak_allocated(), 0);
    }

    #[test]
    fn oom_retries_after_releasing_cache() {
        let mut a = CachingAllocator::sim(0, 100 * MIB);
        let x = a.malloc(60 * MIB).unwrap();
        a.free(x);
        let y = a.malloc(80 * MIB).unwrap();
        assert_eq!(a.reserved(), 80 * MIB);
        assert_eq!(a.stats().num_alloc_retries, 1);
        let e = a.malloc(30 * MIB).unwrap_err();
        assert_eq!(
            e.message,
            "CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total capacity of 100.00 MiB of which 20.00 MiB is free. Including non-PyTorch memory, this process has 80.00 MiB memory in use. Of the allocated memory 80.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
        );
        a.free(y);
    }

    #[test]
    fn sizes() {
        assert_eq!(format_size(1024), "1024 bytes");
        assert_eq!(format_size(1025), "1.00 KiB");
        assert_eq!(format_size(20 * MIB), "20.00 MiB");
        assert_eq!(format_size(25_300_000_000), "23.56 GiB");
    }
}

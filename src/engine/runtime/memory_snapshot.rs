//! The runtime's side of `torch.cuda.memory._record_memory_history` and `_snapshot()`: every
//! device's allocator records (see engine/memory_history.rs).

use super::Runtime;
use crate::engine::memory_history::{SegmentSnapshot, TraceEntry};

impl Runtime {
    /// Switches recording on (`Some(true)`: the trace of actions too, `Some(false)`: the
    /// lines of live blocks only) or off (`None`) on every device.
    pub(crate) fn record_memory_history(&self, enabled: Option<bool>, max_entries: usize) {
        for d in &self.devices {
            d.alloc.borrow_mut().record_history(enabled, max_entries);
        }
    }

    /// Every device's segments (with the device index) and each device's trace.
    pub(crate) fn memory_snapshot(&self) -> (Vec<(u32, SegmentSnapshot)>, Vec<Vec<TraceEntry>>) {
        let mut segments = Vec::new();
        let mut traces = Vec::new();
        for d in &self.devices {
            let a = d.alloc.borrow();
            segments.extend(a.snapshot().into_iter().map(|s| (d.index, s)));
            traces.push(a.trace_entries());
        }
        (segments, traces)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::runtime::{Runtime, RuntimeConfig};

    #[test]
    fn a_snapshot_names_the_line_of_each_live_block_and_the_trace_keeps_the_actions() {
        let rt = Runtime::new(RuntimeConfig::default());
        rt.record_memory_history(Some(true), 100);
        rt.set_line(3);
        let a = rt.alloc_block(0, 4 << 20).unwrap();
        rt.set_line(4);
        let b = rt.alloc_block(0, 40).unwrap();
        rt.set_line(5);
        drop(b);
        let (segments, traces) = rt.memory_snapshot();
        assert_eq!(segments.len(), 2, "a large and a small segment");
        let large = segments
            .iter()
            .find(|(_, s)| s.segment_type == "large")
            .unwrap();
        assert_eq!(large.1.total_size, 20 << 20);
        assert_eq!(large.1.allocated_size, 4 << 20);
        assert_eq!(large.1.blocks[0].line, Some(3));
        assert_eq!(large.1.blocks[0].state, "active_allocated");
        assert_eq!(large.1.blocks[1].state, "inactive");
        let actions: Vec<(&str, u32)> = traces[0].iter().map(|e| (e.action, e.line)).collect();
        assert_eq!(
            actions,
            [
                ("segment_alloc", 3),
                ("alloc", 3),
                ("segment_alloc", 4),
                ("alloc", 4),
                ("free_requested", 0),
                ("free_completed", 0)
            ]
        );
        drop(a);
        rt.record_memory_history(None, 0);
        assert!(rt.memory_snapshot().1[0].is_empty());
    }
}

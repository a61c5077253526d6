//! CUDA events and stream queries on the modelled stream (`torch.cuda.Event`,
//! `torch.cuda.current_stream()`), and the forked DataLoader worker that may not touch CUDA.
//!
//! An event recorded on a device's stream completes when the stream reaches it: after every
//! kernel and copy queued before it, and not before the host enqueued it. Its device time is
//! what `elapsed_time` subtracts; `synchronize` makes the host wait for it, and raises the
//! sticky device error when the stream failed before it, as `cudaEventSynchronize` does.

use super::{OpKind, OpStatus, Runtime};
use crate::engine::error::{EngineError, Result};

/// torch/cuda/__init__.py's `_lazy_init` in a process forked after CUDA started (2.15).
pub const BAD_FORK_MESSAGE: &str = "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method";

impl Runtime {
    /// Records an event on `dev`'s stream: the device time (µs) at which it completes.
    pub(crate) fn event_record(&self, dev: u32) -> Result<f64> {
        self.cuda_check("record_event", OpKind::Host, dev)?;
        let ready = self.host_us() + self.cfg.timing.launch_latency_us;
        let t = {
            let st = self.streams.borrow();
            ready.max(st[dev as usize].end_us)
        };
        self.host_event("record_event", Some(dev), self.cfg.timing.host_query_us);
        Ok(t)
    }

    /// `event.query()`: has the stream reached an event that completes at device time `t`?
    /// A failure the stream met before is reported here, as CUDA reports it.
    pub(crate) fn event_query(&self, dev: u32, t: f64) -> Result<bool> {
        self.cuda_check("query_event", OpKind::Host, dev)?;
        let now = self.host_us();
        self.host_event("query_event", Some(dev), self.cfg.timing.host_query_us);
        Ok(now >= t)
    }

    /// `event.synchronize()`: the host waits until device time `t`; a kernel that failed
    /// before the event raises its sticky error now.
    pub(crate) fn event_synchronize(&self, dev: u32, t: f64) -> Result<()> {
        self.cuda_check("synchronize_event", OpKind::Sync, dev)?;
        let t0 = self.host_us();
        let failed = self.streams.borrow()[dev as usize]
            .failed_at
            .filter(|f| *f <= t);
        let until = self.host_us().max(failed.unwrap_or(t)).max(t);
        self.shared.host_us.set(until);
        // The sync is recorded either way; a failure the stream met first is marked
        // reported before the record, as it was reported by this sync.
        let status = if failed.is_some() {
            self.streams.borrow_mut()[dev as usize].reported = true;
            OpStatus::Reported
        } else {
            OpStatus::Ok
        };
        self.record(
            "synchronize_event",
            OpKind::Sync,
            Some(dev),
            t0,
            None,
            status,
        );
        if failed.is_some() {
            self.mark_reported();
            return Err(EngineError::device_assert_for(self.launch_blocking()));
        }
        Ok(())
    }

    /// `stream.wait_event(e)`: later work on `dev`'s stream starts after device time `t`.
    pub(crate) fn stream_wait(&self, dev: u32, t: f64) -> Result<()> {
        self.cuda_check("wait_event", OpKind::Host, dev)?;
        let mut st = self.streams.borrow_mut();
        let s = &mut st[dev as usize];
        s.end_us = s.end_us.max(t);
        Ok(())
    }

    /// `stream.query()`: has everything queued on `dev`'s stream finished?
    pub(crate) fn stream_query(&self, dev: u32) -> Result<bool> {
        self.cuda_check("query_stream", OpKind::Host, dev)?;
        let end = self.streams.borrow()[dev as usize].end_us;
        let now = self.host_us();
        self.host_event("query_stream", Some(dev), self.cfg.timing.host_query_us);
        Ok(now >= end)
    }

    /// Marks the code that runs next as a DataLoader worker forked after CUDA started in the
    /// parent (`true`), or back in the main process (`false`).
    pub(crate) fn set_in_bad_fork(&self, on: bool) {
        self.in_bad_fork.set(on);
    }
}

/// `Event.elapsed_time`: milliseconds between two event times, as the float CUDA returns.
pub fn elapsed_ms(start_us: f64, end_us: f64) -> f64 {
    (((end_us - start_us) / 1000.0) as f32) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::runtime::RuntimeConfig;
    use crate::engine::timing::Cost;

    #[test]
    fn an_event_completes_after_the_work_queued_before_it() {
        let rt = Runtime::new(RuntimeConfig::default());
        let start = rt.event_record(0).unwrap();
        rt.launch("_sleep", 0, Cost::new(0, 100_000_000_000), Vec::new())
            .unwrap();
        let end = rt.event_record(0).unwrap();
        assert!(end > start + 1000.0, "{start} {end}");
        assert!(!rt.event_query(0, end).unwrap(), "the host ran ahead");
        rt.event_synchronize(0, end).unwrap();
        assert!(rt.event_query(0, end).unwrap());
        assert!(rt.host_us() >= end);
        assert!(elapsed_ms(start, end) > 1.0);
    }

    #[test]
    fn a_forked_worker_may_not_touch_cuda() {
        let rt = Runtime::new(RuntimeConfig::default());
        rt.set_in_bad_fork(true);
        let e = rt.event_record(0).unwrap_err();
        assert_eq!(e.message, BAD_FORK_MESSAGE);
        rt.set_in_bad_fork(false);
        assert!(rt.event_record(0).is_ok());
    }
}

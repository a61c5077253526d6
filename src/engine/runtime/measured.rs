//! The report's timeline on a GPU backend: each op's device times are the measured spans of
//! the launches and copies it made (CUDA events on the cuda device, the host clock around
//! each kernel on the emulated one), not the stream model's. The model still runs: the
//! script's own `torch.cuda.Event` timings and the exercises' checks read its clock, so a
//! check gives the same answer on every backend; only what the report shows is measured.
//!
//! Every recorded op is tagged with the spans its device recorded since the previous op
//! ([`Runtime::tag_measured_spans`]); at the end of the run the tags are resolved against
//! the device's spans ([`Runtime::measured_timeline`]).

use super::{OpEvent, Runtime};

/// The spans `from..to` of device `dev` belong to timeline entry `event`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SpanTag {
    event: usize,
    dev: u32,
    from: usize,
    to: usize,
}

impl Runtime {
    /// Called as event number `event` (of device `dev`) is recorded: the spans its device
    /// recorded since the last tag are this op's.
    pub(super) fn tag_measured_spans(&self, event: usize, dev: u32) {
        let Some(ctx) = self.gpus.get(dev as usize) else {
            return;
        };
        let now = ctx.device.spans_recorded();
        let mut seen = self.spans_seen.borrow_mut();
        if seen.len() <= dev as usize {
            seen.resize(dev as usize + 1, 0);
        }
        let from = seen[dev as usize];
        if now > from {
            self.span_tags.borrow_mut().push(SpanTag {
                event,
                dev,
                from,
                to: now,
            });
            seen[dev as usize] = now;
        }
    }

    /// `events` (this run's timeline) with measured device times (None on the sim, whose
    /// times are the model's).
    /// An op's device times run from its first span's start to its last span's end; a device
    /// op that made no measured launch or copy has none. The device clock is placed on the
    /// host's so that the first measured op starts when it was issued.
    pub(crate) fn measured_timeline(&self, mut events: Vec<OpEvent>) -> Option<Vec<OpEvent>> {
        if self.gpus.is_empty() {
            return None;
        }
        let spans: Vec<Vec<super::super::cuda::gpu::MeasuredSpan>> = self
            .gpus
            .iter()
            .map(|g| g.device.measured_spans())
            .collect();
        let mut measured: Vec<Option<(f64, f64)>> = vec![None; events.len()];
        let mut shift: Vec<Option<f64>> = vec![None; spans.len()];
        for tag in self.span_tags.borrow().iter() {
            let (Some(dev_spans), Some(event)) =
                (spans.get(tag.dev as usize), events.get(tag.event))
            else {
                continue;
            };
            let own: Vec<_> = dev_spans
                .get(tag.from..tag.to.min(dev_spans.len()))
                .unwrap_or_default()
                .iter()
                .filter(|s| s.start_us.is_finite() && s.end_us.is_finite())
                .collect();
            let (Some(first), Some(last)) = (own.first(), own.last()) else {
                continue;
            };
            let shift = *shift[tag.dev as usize].get_or_insert(event.host_us - first.start_us);
            let end = own.iter().map(|s| s.end_us).fold(last.end_us, f64::max);
            measured[tag.event] = Some((first.start_us + shift, end + shift));
        }
        for (e, m) in events.iter_mut().zip(measured) {
            if e.device.is_none() || e.device_start_us.is_none() {
                continue;
            }
            e.device_start_us = m.map(|t| t.0);
            e.device_end_us = m.map(|t| t.1);
        }
        Some(events)
    }
}

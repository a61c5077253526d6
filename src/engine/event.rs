//! The engine's event vocabulary: what one operation looked like on the host and the device
//! ([`TimelineEntry`]), the allocator counters at the end of a run ([`MemoryReport`]), and the
//! one computation of the deferred-error gap ([`assert_gap`]) that the UI's timeline pane and
//! the CLI summary both show. `run/` re-exports these types into its RunReport; the engine
//! imports nothing from `run/`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of work an operation was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    /// A kernel launched on a device's stream.
    Kernel,
    /// Host-to-device copy.
    H2d,
    /// Device-to-host copy.
    D2h,
    /// Device-to-device copy.
    D2d,
    /// The host waited for a device (a synchronising call).
    Sync,
    Alloc,
    /// A block returned to the caching allocator.
    Free,
    /// CPU-only work (CPU tensors, views, queries).
    #[default]
    Host,
}

/// How an operation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpStatus {
    #[default]
    Ok,
    /// This kernel failed a device-side assert.
    Assert,
    /// This call raised the deferred device error.
    Reported,
    /// Refused because the context was already broken.
    Failed,
    /// A host-side error raised by this call.
    Error,
}

impl OpKind {
    pub const ALL: [OpKind; 8] = [
        OpKind::Kernel,
        OpKind::H2d,
        OpKind::D2h,
        OpKind::D2d,
        OpKind::Sync,
        OpKind::Alloc,
        OpKind::Free,
        OpKind::Host,
    ];
    /// The name in JSON reports and on screen (`kernel`, `h2d`, ...).
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Kernel => "kernel",
            OpKind::H2d => "h2d",
            OpKind::D2h => "d2h",
            OpKind::D2d => "d2d",
            OpKind::Sync => "sync",
            OpKind::Alloc => "alloc",
            OpKind::Free => "free",
            OpKind::Host => "host",
        }
    }
}

impl OpStatus {
    pub const ALL: [OpStatus; 5] = [
        OpStatus::Ok,
        OpStatus::Assert,
        OpStatus::Reported,
        OpStatus::Failed,
        OpStatus::Error,
    ];
    /// The name in JSON reports and on screen (`ok`, `assert`, ...).
    pub fn name(self) -> &'static str {
        match self {
            OpStatus::Ok => "ok",
            OpStatus::Assert => "assert",
            OpStatus::Reported => "reported",
            OpStatus::Failed => "failed",
            OpStatus::Error => "error",
        }
    }
}

/// An unknown kind or status name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName(pub String);

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown event name '{}'", self.0)
    }
}

impl std::error::Error for UnknownName {}

macro_rules! named_enum {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl std::str::FromStr for $t {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                <$t>::ALL
                    .into_iter()
                    .find(|k| k.name() == s)
                    .ok_or_else(|| UnknownName(s.to_string()))
            }
        }
        /// Compares with the serialised name, so `entry.status == "assert"` reads as it did
        /// when the field was a string.
        impl PartialEq<&str> for $t {
            fn eq(&self, other: &&str) -> bool {
                self.name() == *other
            }
        }
        impl PartialEq<str> for $t {
            fn eq(&self, other: &str) -> bool {
                self.name() == other
            }
        }
    };
}
named_enum!(OpKind);
named_enum!(OpStatus);

/// One engine operation: when the host issued it and when the device ran it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TimelineEntry {
    /// 1-based script line that issued the op.
    pub line: u32,
    /// The op's name as the learner would know it: `randn`, `cross_entropy`, `item`, `to`.
    pub op: String,
    pub kind: OpKind,
    /// CUDA device index, or None for CPU work.
    pub device: Option<u32>,
    /// Host clock (µs since the run started) when the call was issued.
    pub host_us: f64,
    /// Host clock when the call returned to Python.
    pub host_end_us: f64,
    pub device_start_us: Option<f64>,
    pub device_end_us: Option<f64>,
    pub status: OpStatus,
    /// Counters of the op's device after it, for the memory sparkline.
    pub allocated: u64,
    pub reserved: u64,
}

/// Allocator counters at the end of the run, in bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// Of the current device (`cuda:0` unless the script changed it), as torch.cuda reports.
    pub allocated: u64,
    pub reserved: u64,
    pub peak_allocated: u64,
    /// Every (virtual) GPU, index order.
    pub devices: Vec<DeviceMemory>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceMemory {
    pub index: u32,
    pub name: String,
    pub allocated: u64,
    pub reserved: u64,
    pub peak_allocated: u64,
    pub capacity: u64,
}

/// A deferred device error on a timeline: the failing kernel, the call that reported it, and
/// how long the host ran on, unaware, in between.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AssertGap {
    /// Index of the kernel whose device-side assert failed (status `assert`).
    pub kernel: usize,
    /// Index of the call that raised the error (status `reported`).
    pub reporter: usize,
    /// µs from the failing launch's return to Python to the reporting call's return.
    pub us: f64,
}

/// The assert-to-report gap of a timeline, or None when it has no reported device assert.
///
/// Measured from when the failing launch returned to Python, not from the kernel's end on
/// the device: the point is how long the host ran on before a later call heard of the
/// failure (from the kernel's end it is ~0 whenever the reporter is a synchronising call).
pub fn assert_gap(timeline: &[TimelineEntry]) -> Option<AssertGap> {
    let kernel = timeline.iter().position(|e| e.status == OpStatus::Assert)?;
    let reporter = timeline
        .iter()
        .position(|e| e.status == OpStatus::Reported)?;
    let launched = timeline[kernel].host_end_us;
    Some(AssertGap {
        kernel,
        reporter,
        us: (timeline[reporter].host_end_us - launched).max(0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(status: OpStatus, host_end_us: f64) -> TimelineEntry {
        TimelineEntry {
            status,
            host_end_us,
            ..TimelineEntry::default()
        }
    }

    #[test]
    fn names_round_trip_through_serde_and_from_str() {
        for k in OpKind::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(k.name().parse::<OpKind>().unwrap(), k);
        }
        for s in OpStatus::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()));
            assert_eq!(serde_json::from_str::<OpStatus>(&json).unwrap(), s);
        }
        assert!("nope".parse::<OpKind>().is_err());
        assert!(OpStatus::Reported == "reported");
    }

    #[test]
    fn the_gap_runs_from_the_failing_launch_to_the_report() {
        let t = vec![
            entry(OpStatus::Ok, 5.0),
            entry(OpStatus::Assert, 12.0),
            entry(OpStatus::Ok, 20.0),
            entry(OpStatus::Reported, 112.5),
        ];
        let g = assert_gap(&t).unwrap();
        assert_eq!((g.kernel, g.reporter), (1, 3));
        assert_eq!(g.us, 100.5);
        assert_eq!(assert_gap(&t[..3]), None);
    }
}

//! Run one script (or one exercise with its checks) and produce a [`RunReport`]; the worker
//! subprocess that isolates real-GPU runs lives here too.

pub mod report;

pub use report::{CheckResult, DeviceMemory, ErrorReport, MemoryReport, RunReport, TimelineEntry};

//! Capturing what a device prints on the process's own stdout and stderr (the CUDA driver
//! prints a failed device-side assert there): the worker and the self-test process point file
//! descriptors 1 and 2 at a capture file and read the new lines after each run.

#[cfg(unix)]
use std::io::Write;
use std::sync::Mutex;

/// Where the device's own output goes while the worker runs: a file both stdout and stderr
/// point at. [`DeviceCapture::take_new_lines`] returns what was written since the last call.
pub struct DeviceCapture {
    file: std::fs::File,
    pub(crate) read_to: u64,
}

impl DeviceCapture {
    pub fn new(file: std::fs::File) -> DeviceCapture {
        DeviceCapture { file, read_to: 0 }
    }

    /// The lines written since the last call (a final line without newline counts).
    pub fn take_new_lines(&mut self) -> Vec<String> {
        use std::io::{Read, Seek, SeekFrom};
        let mut buf = Vec::new();
        if self.file.seek(SeekFrom::Start(self.read_to)).is_ok()
            && self.file.read_to_end(&mut buf).is_ok()
        {
            self.read_to += buf.len() as u64;
        }
        String::from_utf8_lossy(&buf)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// The worker's capture, shared by the process: the cuda device takes the driver's assert
/// lines from it as soon as a failing launch is waited for (so the op that failed gets them,
/// as on the emulated device), and the worker takes whatever else the device printed after
/// each run. Other lines the device reads are kept for the worker, in order.
static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

struct Shared {
    capture: DeviceCapture,
    kept: Vec<String>,
}

/// Makes `capture` the process's shared capture (replacing an earlier one).
pub fn share(capture: DeviceCapture) {
    if let Ok(mut s) = SHARED.lock() {
        *s = Some(Shared {
            capture,
            kept: Vec::new(),
        });
    }
}

/// Whether a shared capture is installed (the process is a worker with its output captured).
pub fn shared() -> bool {
    SHARED.lock().is_ok_and(|s| s.is_some())
}

/// The new device-side assert lines (`... Assertion `cond` failed.`) of the shared capture;
/// the other new lines are kept for [`take_shared_lines`].
pub(crate) fn take_shared_assert_lines() -> Vec<String> {
    let Ok(mut guard) = SHARED.lock() else {
        return Vec::new();
    };
    let Some(s) = guard.as_mut() else {
        return Vec::new();
    };
    let (asserts, other): (Vec<String>, Vec<String>) = s
        .capture
        .take_new_lines()
        .into_iter()
        .partition(|l| is_assert_line(l));
    s.kept.extend(other);
    asserts
}

/// Every line of the shared capture not yet taken (kept lines first).
pub(crate) fn take_shared_lines() -> Vec<String> {
    let Ok(mut guard) = SHARED.lock() else {
        return Vec::new();
    };
    let Some(s) = guard.as_mut() else {
        return Vec::new();
    };
    let mut lines = std::mem::take(&mut s.kept);
    lines.extend(s.capture.take_new_lines());
    lines
}

/// A device-side assert as the driver prints it: `file:line: function: block: [..], thread:
/// [..] Assertion `cond` failed.`
pub fn is_assert_line(line: &str) -> bool {
    line.contains("Assertion `") && line.trim_end().ends_with("failed.")
}

/// Moves this process's stdout to a private descriptor (returned: the protocol channel) and
/// points descriptors 1 and 2 at a capture file: `CUDATUTOR_WORKER_LOG` when the parent names
/// one (so it can show the tail after a crash), else an anonymous temporary file. None when
/// the descriptors cannot be moved.
#[cfg(unix)]
pub(crate) fn redirect_device_output() -> Option<(std::fs::File, DeviceCapture)> {
    use std::os::fd::{AsRawFd, FromRawFd};
    // The capture file: the parent names one (so it can show the tail after a crash), else an
    // anonymous temporary file.
    let file = match std::env::var_os("CUDATUTOR_WORKER_LOG") {
        Some(p) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(p)
            .ok()?,
        None => {
            let path = std::env::temp_dir().join(format!(
                "cudatutor-worker-{}-{}.log",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0)
            ));
            let f = std::fs::OpenOptions::new()
                .create_new(true)
                .append(true)
                .read(true)
                .open(&path)
                .ok()?;
            let _ = std::fs::remove_file(&path);
            f
        }
    };
    let reader = file.try_clone().ok()?;
    // SAFETY: dup/dup2 on descriptors this process owns; the protocol descriptor is a fresh
    // duplicate handed to a File that owns it from here on.
    unsafe {
        let protocol = libc::dup(1);
        if protocol < 0 {
            return None;
        }
        let _ = std::io::stdout().flush();
        if libc::dup2(file.as_raw_fd(), 1) < 0 || libc::dup2(file.as_raw_fd(), 2) < 0 {
            libc::close(protocol);
            return None;
        }
        let mut capture = DeviceCapture::new(reader);
        capture.read_to = std::fs::metadata(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .map(|m| m.len())
            .unwrap_or(0);
        Some((std::fs::File::from_raw_fd(protocol), capture))
    }
}

#[cfg(not(unix))]
pub(crate) fn redirect_device_output() -> Option<(std::fs::File, DeviceCapture)> {
    None
}

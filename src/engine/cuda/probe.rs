//! Driver and device detection for `cudatutor doctor` and `--backend auto`, without panics.
//!
//! cudarc panics when libcuda.so is absent, so the order is fixed:
//! `cudarc::driver::sys::is_culib_present()` (false: "no NVIDIA driver", use sim) ->
//! `cuInit` -> `cuDriverGetVersion` -> device count -> per device name, memory and compute
//! capability. Every cudarc call is also wrapped in `catch_unwind` (a library that loads but
//! lacks a symbol panics too). No context is created, so probing is cheap and leaves the GPU
//! untouched.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use cudarc::driver::{result, sys};

/// One GPU as the driver reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: i32,
    pub name: String,
    pub total_memory_bytes: u64,
    /// (major, minor), e.g. (9, 0) for H100/H200.
    pub compute_capability: (i32, i32),
}

impl DeviceInfo {
    /// The NVRTC target for this device, e.g. `"sm_90"`.
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

/// What the probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverStatus {
    /// libcuda.so could not be loaded: no NVIDIA driver on this machine.
    NoDriver,
    /// The driver loaded but a call failed (e.g. cuInit: no device, or a driver/kernel-module
    /// mismatch); the text is the driver's error.
    Error(String),
    /// The driver works; `devices` may still be empty.
    Ready,
}

/// The whole answer, printed by `doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverProbe {
    pub status: DriverStatus,
    /// cuDriverGetVersion as (major, minor), e.g. (13, 0).
    pub driver_version: Option<(i32, i32)>,
    pub devices: Vec<DeviceInfo>,
}

impl DriverProbe {
    /// A usable GPU is present (what `--backend auto` needs).
    pub fn has_gpu(&self) -> bool {
        self.status == DriverStatus::Ready && !self.devices.is_empty()
    }
}

impl fmt::Display for DriverProbe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.status {
            DriverStatus::NoDriver => {
                return write!(f, "no NVIDIA driver (libcuda.so not found)");
            }
            DriverStatus::Error(e) => {
                write!(f, "NVIDIA driver present but not usable: {e}")?;
                if let Some((ma, mi)) = self.driver_version {
                    write!(f, " (driver supports CUDA {ma}.{mi})")?;
                }
                return Ok(());
            }
            DriverStatus::Ready => {}
        }
        match self.driver_version {
            Some((ma, mi)) => write!(f, "NVIDIA driver for CUDA {ma}.{mi}")?,
            None => write!(f, "NVIDIA driver")?,
        }
        if self.devices.is_empty() {
            return write!(f, ", no CUDA devices");
        }
        write!(f, ", {} device(s)", self.devices.len())?;
        for d in &self.devices {
            write!(
                f,
                "\n  cuda:{}: {}, {:.1} GiB, compute capability {}.{} ({})",
                d.ordinal,
                d.name,
                d.total_memory_bytes as f64 / (1u64 << 30) as f64,
                d.compute_capability.0,
                d.compute_capability.1,
                d.arch()
            )?;
        }
        Ok(())
    }
}

fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "cudarc panicked".into())),
    }
}

fn device_info(ordinal: i32) -> Result<DeviceInfo, String> {
    guarded(|| {
        let dev = result::device::get(ordinal).map_err(|e| e.to_string())?;
        let name = result::device::get_name(dev).map_err(|e| e.to_string())?;
        // SAFETY: `dev` was returned by cuDeviceGet.
        let (mem, major, minor) = unsafe {
            let mem = result::device::total_mem(dev).map_err(|e| e.to_string())?;
            let major = result::device::get_attribute(
                dev,
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            )
            .map_err(|e| e.to_string())?;
            let minor = result::device::get_attribute(
                dev,
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            )
            .map_err(|e| e.to_string())?;
            (mem, major, minor)
        };
        Ok(DeviceInfo {
            ordinal,
            name,
            total_memory_bytes: mem as u64,
            compute_capability: (major, minor),
        })
    })
}

/// Is libcuda.so loadable? (cudarc's own search; no driver function is called.)
pub fn driver_library_present() -> bool {
    // A Linux driver always installs libcuda.so.1, the name the CUDA runtime itself opens.
    // Where neither it nor libcuda.so loads, cudarc's search can only fail, and it tries 37
    // names in every library directory: about 175 failed opens, 2 ms of every start-up of
    // `auto` on a machine without a GPU.
    #[cfg(target_os = "linux")]
    if !["libcuda.so.1", "libcuda.so"]
        .into_iter()
        .any(library_loads)
    {
        return false;
    }
    // SAFETY: only dlopens candidate names.
    guarded(|| Ok(unsafe { sys::is_culib_present() })).unwrap_or(false)
}

/// Whether the dynamic loader can load the library `name` (loaded and closed again).
#[cfg(target_os = "linux")]
fn library_loads(name: &str) -> bool {
    let Ok(name) = std::ffi::CString::new(name) else {
        return false;
    };
    // SAFETY: `name` is a NUL-terminated string that outlives the call; a handle dlopen
    // returns is closed once and not used after.
    unsafe {
        let handle = libc::dlopen(name.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
        if handle.is_null() {
            return false;
        }
        libc::dlclose(handle);
    }
    true
}

/// Probes the driver and every device, once per process (cuInit and the device queries take
/// a noticeable part of a short run's start-up, and the answer does not change while a
/// process lives). Never panics.
pub fn probe_driver() -> DriverProbe {
    static PROBE: std::sync::OnceLock<DriverProbe> = std::sync::OnceLock::new();
    PROBE.get_or_init(probe_driver_now).clone()
}

fn probe_driver_now() -> DriverProbe {
    let mut probe = DriverProbe {
        status: DriverStatus::NoDriver,
        driver_version: None,
        devices: Vec::new(),
    };
    if !driver_library_present() {
        return probe;
    }
    // The library is loaded; cudarc checks each CUresult of the calls below.
    probe.driver_version = guarded(|| {
        let mut v: std::ffi::c_int = 0;
        // SAFETY: `v` is a valid out-pointer for the call's one int.
        let r = unsafe { sys::cuDriverGetVersion(&mut v) };
        if r == sys::CUresult::CUDA_SUCCESS {
            Ok((v / 1000, (v % 1000) / 10))
        } else {
            Err(format!("{r:?}"))
        }
    })
    .ok();
    if let Err(e) = guarded(|| result::init().map_err(|e| e.to_string())) {
        probe.status = DriverStatus::Error(format!("cuInit failed: {e}"));
        return probe;
    }
    let count = match guarded(|| result::device::get_count().map_err(|e| e.to_string())) {
        Ok(n) => n,
        Err(e) => {
            probe.status = DriverStatus::Error(format!("cuDeviceGetCount failed: {e}"));
            return probe;
        }
    };
    for ordinal in 0..count {
        match device_info(ordinal) {
            Ok(d) => probe.devices.push(d),
            Err(e) => {
                probe.status = DriverStatus::Error(format!("device {ordinal}: {e}"));
                return probe;
            }
        }
    }
    probe.status = DriverStatus::Ready;
    probe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn library_loads_tells_a_present_library_from_a_missing_one() {
        assert!(library_loads("libc.so.6"));
        assert!(!library_loads("libcudatutor-no-such-library.so.1"));
        assert!(!library_loads("bad\0name"));
    }

    #[test]
    fn display_of_no_driver() {
        let p = DriverProbe {
            status: DriverStatus::NoDriver,
            driver_version: None,
            devices: vec![],
        };
        assert_eq!(p.to_string(), "no NVIDIA driver (libcuda.so not found)");
        assert!(!p.has_gpu());
    }

    #[test]
    fn display_of_a_device() {
        let p = DriverProbe {
            status: DriverStatus::Ready,
            driver_version: Some((13, 0)),
            devices: vec![DeviceInfo {
                ordinal: 0,
                name: "NVIDIA H200".into(),
                total_memory_bytes: 150_000_000_000,
                compute_capability: (9, 0),
            }],
        };
        assert!(p.has_gpu());
        let s = p.to_string();
        assert!(
            s.starts_with("NVIDIA driver for CUDA 13.0, 1 device(s)"),
            "{s}"
        );
        assert!(
            s.contains("cuda:0: NVIDIA H200, 139.7 GiB, compute capability 9.0 (sm_90)"),
            "{s}"
        );
    }
}

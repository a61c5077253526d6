//! What one kernel launch is, device-independently: the grid and block, the dynamic shared
//! memory, and the argument array `cuLaunchKernel` receives (`void** kernelParams`: element i
//! points at the i-th argument's value). The emulated device and the cuda device both take
//! exactly this, so the emulated device proves the argument layouts the GPU will read.
//!
//! Also the `#[repr(C)]` mirrors of the structs kernels/common.cu and reduce.cu pass by value.

use std::ffi::c_void;
use std::fmt;

/// Most dimensions a kernel's shape/stride structs describe (`CT_MAX_DIMS` in common.cu).
pub(crate) const MAX_DIMS: usize = 8;

/// `CtShape` in common.cu.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CtShape {
    pub ndim: i32,
    pub sizes: [i64; MAX_DIMS],
}

/// `CtStrides` in common.cu (in elements; 0 in a broadcast dimension).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CtStrides {
    pub s: [i64; MAX_DIMS],
}

/// `CtReduceGeom` in reduce.cu: the input viewed as [outer, len, inner].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CtReduceGeom {
    pub outer: i64,
    pub len: i64,
    pub inner: i64,
    pub s_outer: i64,
    pub s_len: i64,
    pub s_inner: i64,
}

impl CtShape {
    /// A shape of at most [`MAX_DIMS`] dimensions; a 0-d tensor is `ndim = 0`.
    pub fn new(sizes: &[usize]) -> Result<CtShape, DeviceError> {
        if sizes.len() > MAX_DIMS {
            return Err(DeviceError::Unsupported(format!(
                "tensors of more than {MAX_DIMS} dimensions on the GPU backends (got {})",
                sizes.len()
            )));
        }
        let mut s = CtShape {
            ndim: sizes.len() as i32,
            sizes: [1; MAX_DIMS],
        };
        for (d, &n) in sizes.iter().enumerate() {
            s.sizes[d] = i64::try_from(n).map_err(|_| too_large())?;
        }
        Ok(s)
    }
}

impl CtStrides {
    pub fn new(strides: &[isize]) -> Result<CtStrides, DeviceError> {
        if strides.len() > MAX_DIMS {
            return Err(DeviceError::Unsupported(format!(
                "tensors of more than {MAX_DIMS} dimensions on the GPU backends"
            )));
        }
        let mut s = CtStrides { s: [0; MAX_DIMS] };
        for (d, &v) in strides.iter().enumerate() {
            s.s[d] = v as i64;
        }
        Ok(s)
    }

    /// Row-major contiguous strides of `sizes`.
    pub fn contiguous(sizes: &[usize]) -> Result<CtStrides, DeviceError> {
        let mut st = vec![0isize; sizes.len()];
        let mut acc: isize = 1;
        for d in (0..sizes.len()).rev() {
            st[d] = acc;
            acc = acc
                .checked_mul(isize::try_from(sizes[d].max(1)).map_err(|_| too_large())?)
                .ok_or_else(too_large)?;
        }
        CtStrides::new(&st)
    }
}

fn too_large() -> DeviceError {
    DeviceError::Unsupported("a tensor too large for 64-bit indexing".into())
}

/// A device address (CUdeviceptr; on the emulated device, a host address).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct DevicePtr(pub u64);

impl DevicePtr {
    pub const NULL: DevicePtr = DevicePtr(0);
    /// This address plus `bytes`.
    pub fn offset(self, bytes: u64) -> DevicePtr {
        DevicePtr(self.0.wrapping_add(bytes))
    }
}

/// A grid or block size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }
    pub fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}

/// The `<<<grid, block, shared>>>` of a launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_mem_bytes: u32,
}

impl LaunchConfig {
    pub const fn new(grid: Dim3, block: Dim3) -> LaunchConfig {
        LaunchConfig {
            grid,
            block,
            shared_mem_bytes: 0,
        }
    }
}

impl fmt::Display for LaunchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<<<({},{},{}), ({},{},{}), {}>>>",
            self.grid.x,
            self.grid.y,
            self.grid.z,
            self.block.x,
            self.block.y,
            self.block.z,
            self.shared_mem_bytes
        )
    }
}

/// A value a kernel parameter can be: plain old data whose bytes the kernel reads as its C
/// type.
///
/// # Safety
/// The implementing type must have the exact size and layout of the C parameter type it is
/// passed for, and no padding whose value matters.
pub unsafe trait KernelArg: Copy + 'static {}

// Primitives and the #[repr(C)] mirrors above are exactly their C counterparts.
// SAFETY: f32 is C's float.
unsafe impl KernelArg for f32 {}
// SAFETY: f64 is C's double.
unsafe impl KernelArg for f64 {}
// SAFETY: i64 is C's int64_t.
unsafe impl KernelArg for i64 {}
// SAFETY: u64 is C's uint64_t.
unsafe impl KernelArg for u64 {}
// SAFETY: i32 is C's int32_t.
unsafe impl KernelArg for i32 {}
// SAFETY: u32 is C's uint32_t.
unsafe impl KernelArg for u32 {}
// SAFETY: u16 is C's uint16_t (float16/bfloat16 bit patterns).
unsafe impl KernelArg for u16 {}
// SAFETY: u8 is C's uint8_t.
unsafe impl KernelArg for u8 {}
// SAFETY: bool is one byte holding 0 or 1 in both Rust and C++.
unsafe impl KernelArg for bool {}
// SAFETY: CtShape is #[repr(C)] with the fields of its kernel-side struct.
unsafe impl KernelArg for CtShape {}
// SAFETY: CtStrides is #[repr(C)] with the fields of its kernel-side struct.
unsafe impl KernelArg for CtStrides {}
// SAFETY: CtReduceGeom is #[repr(C)] with the fields of its kernel-side struct.
unsafe impl KernelArg for CtReduceGeom {}
// SAFETY: DevicePtr is a transparent u64, as the kernels' pointer parameters are 64-bit
// addresses.
unsafe impl KernelArg for DevicePtr {}

/// The argument array of one launch. Each value lives in its own 8-byte-aligned slot (every
/// parameter type here needs at most 8), and [`KernelArgs::pointers`] is the `void**` array.
#[derive(Debug, Default, Clone)]
pub struct KernelArgs {
    slots: Vec<Box<[u64]>>,
    sizes: Vec<usize>,
}

impl KernelArgs {
    pub fn new() -> KernelArgs {
        KernelArgs::default()
    }

    /// Appends one argument.
    pub fn push<T: KernelArg>(&mut self, value: T) -> &mut Self {
        let size = std::mem::size_of::<T>();
        debug_assert!(std::mem::align_of::<T>() <= 8);
        let mut slot = vec![0u64; size.div_ceil(8).max(1)].into_boxed_slice();
        // SAFETY: the slot holds at least `size` bytes and is 8-byte aligned, which is enough
        // for T (checked above); T is Copy plain data (KernelArg).
        unsafe { std::ptr::write(slot.as_mut_ptr().cast::<T>(), value) };
        self.slots.push(slot);
        self.sizes.push(size);
        self
    }

    /// Builder form of [`KernelArgs::push`].
    pub fn arg<T: KernelArg>(mut self, value: T) -> Self {
        self.push(value);
        self
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Size in bytes of each argument, in order.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The `void**` array: element i points at argument i. Valid while `self` lives and is not
    /// changed.
    pub fn pointers(&self) -> Vec<*mut c_void> {
        self.slots
            .iter()
            .map(|s| s.as_ptr() as *mut c_void)
            .collect()
    }
}

/// Why a device call failed. `Assert` and `Sticky` mean the context is poisoned: every later
/// call fails the same way until the process ends (a new worker starts for the next run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceError {
    /// A kernel failed a device-side assert (cudaErrorAssert, CUDA_ERROR_ASSERT = 710).
    Assert,
    /// Another sticky error poisoned the context (illegal address, launch failure, ...):
    /// the driver's code and name.
    Sticky { code: i32, name: String },
    /// The allocation did not fit (cuMemAlloc's CUDA_ERROR_OUT_OF_MEMORY).
    OutOfMemory { bytes: u64 },
    /// The launch was refused before it ran (bad grid/block, wrong arguments, unknown entry).
    Launch(String),
    /// Anything else the driver or the device reported, not sticky.
    Driver { code: i32, name: String },
    /// The operation or dtype is not implemented on the GPU backends.
    Unsupported(String),
    /// The device cannot be used at all (not built, no driver, kernels failed to load).
    Unavailable(String),
}

impl DeviceError {
    /// True when the context is poisoned by this error.
    pub(crate) fn is_sticky(&self) -> bool {
        matches!(self, DeviceError::Assert | DeviceError::Sticky { .. })
    }
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceError::Assert => f.write_str("device-side assert triggered"),
            DeviceError::Sticky { code, name } => write!(f, "{name} ({code})"),
            DeviceError::OutOfMemory { bytes } => {
                write!(f, "out of memory allocating {bytes} bytes")
            }
            DeviceError::Launch(why) => write!(f, "kernel launch failed: {why}"),
            DeviceError::Driver { code, name } => write!(f, "CUDA driver error {name} ({code})"),
            DeviceError::Unsupported(what) => write!(f, "not supported: {what}"),
            DeviceError::Unavailable(why) => write!(f, "device unavailable: {why}"),
        }
    }
}

impl std::error::Error for DeviceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_slots_hold_the_values_cuda_reads() {
        let shape = CtShape::new(&[2, 3]).unwrap();
        let args = KernelArgs::new()
            .arg(7i64)
            .arg(shape)
            .arg(1.5f32)
            .arg(true)
            .arg(DevicePtr(0xdead_beef));
        assert_eq!(args.sizes(), &[8, 72, 4, 1, 8]);
        let p = args.pointers();
        // SAFETY: each pointer addresses a slot holding a value of the pushed type.
        unsafe {
            assert_eq!(*(p[0] as *const i64), 7);
            let shape = *(p[1] as *const CtShape);
            assert_eq!(shape.sizes[..2], [2, 3]);
            assert_eq!(*(p[2] as *const f32), 1.5);
            assert!(*(p[3] as *const bool));
            assert_eq!(*(p[4] as *const u64), 0xdead_beef);
        }
    }

    #[test]
    fn shapes_beyond_eight_dims_are_refused_not_truncated() {
        assert!(CtShape::new(&[1; 9]).is_err());
        assert_eq!(
            CtStrides::contiguous(&[2, 3, 4]).unwrap().s[..3],
            [12, 4, 1]
        );
    }
}

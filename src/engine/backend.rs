//! The seam where a real GPU backend plugs in. Today every op runs the reference CPU math in
//! [`crate::engine::tensor`] and the [`crate::engine::runtime::Runtime`] models device time
//! (the sim backend). A cuda backend would implement [`Backend`] to run the same op on the
//! device (kernels from `kernels/*.cu` via [`crate::engine::cuda`]) and report measured
//! times; the allocator already sits behind
//! [`crate::engine::allocator::SegmentSource`] for cuMemAlloc.

/// Which backend executes CUDA tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// Simulated GPU: data in host memory, device time modelled.
    Sim,
    /// Real CUDA (not implemented in the engine yet).
    Cuda,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Sim => "sim",
            BackendKind::Cuda => "cuda",
        }
    }
    /// True when device times are modelled rather than measured.
    pub fn modelled(self) -> bool {
        self == BackendKind::Sim
    }
}

/// What a device backend must provide for one op: run it and say how long it took on the
/// device (None: use the model).
pub trait Backend {
    fn kind(&self) -> BackendKind;
    /// Measured device duration of the last op, in µs, when the backend can time it.
    fn last_kernel_us(&self) -> Option<f64> {
        None
    }
}

/// The simulated GPU.
#[derive(Debug, Default, Clone, Copy)]
pub struct SimBackend;

impl Backend for SimBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Sim
    }
}

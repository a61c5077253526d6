//! cuBLAS for matrix products on the cuda device, when the library loads (cudarc 0.19,
//! dynamic loading; never panics without it). Its workspace is memory the caller allocates
//! through the caching allocator, as PyTorch does, so `memory_allocated()` shows it.
//!
//! Row-major products map onto column-major cuBLAS as C^T = B^T A^T; an operand whose
//! strides have no unit stride cannot be described to cuBLAS, and [`gemm`] says so
//! (`Unsupported`): the caller then uses matmul.cu's tiled kernel.
//!
//! Unverified on a GPU here (none was lent); scripts/gpu-check.sh runs it.

use super::launch::{DeviceError, DevicePtr};
use super::ops::{Elem, Gemm};
use cudarc::cublas::sys as cb;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Is libcublas loadable? (No cuBLAS function is called.)
pub(crate) fn present() -> bool {
    // SAFETY: only dlopens candidate library names.
    catch_unwind(AssertUnwindSafe(|| unsafe { cb::is_culib_present() })).unwrap_or(false)
}

/// The cuBLAS workspace PyTorch gives each handle, in bytes: `CUBLAS_WORKSPACE_CONFIG`
/// (`:SIZE_KiB:COUNT` pairs, summed) when set and well formed, else PyTorch's default for the
/// architecture (`:4096:8`, 32 MiB, from compute capability 9.0; `:4096:2:16:8` before).
/// The default is what PyTorch's source says; gpu-check.sh records the counters a real
/// matmul leaves (tests/cuda/matmul_workspace.py).
pub(crate) fn workspace_size(config: Option<&str>, major: i32) -> u64 {
    fn parse(s: &str) -> Option<u64> {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.first() != Some(&"") || parts.len() < 3 || parts.len().is_multiple_of(2) {
            return None;
        }
        let mut total = 0u64;
        for pair in parts[1..].chunks(2) {
            let kib: u64 = pair[0].parse().ok()?;
            let count: u64 = pair[1].parse().ok()?;
            total = total.checked_add(kib.checked_mul(count)?.checked_mul(1024)?)?;
        }
        Some(total)
    }
    let default = if major >= 9 {
        ":4096:8"
    } else {
        ":4096:2:16:8"
    };
    config
        .and_then(parse)
        .or_else(|| parse(default))
        .unwrap_or(0)
}

/// One cuBLAS handle on a stream.
pub struct Cublas {
    handle: cb::cublasHandle_t,
}

fn status(what: &str, s: cb::cublasStatus_t) -> Result<(), DeviceError> {
    if s == cb::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(DeviceError::Driver {
            code: s as i32,
            name: format!("{what}: {s:?}"),
        })
    }
}

fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, DeviceError>) -> Result<T, DeviceError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(DeviceError::Unavailable(format!(
            "{what}: the cuBLAS library panicked"
        )))
    })
}

/// How one operand is handed to cuBLAS: transposed or not, and its leading dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlasOperand {
    pub transpose: bool,
    pub ld: i64,
}

/// Describes a `rows x cols` column-major operand whose element (r, c) is at
/// `r * r_stride + c * c_stride`, or None when neither stride is 1 (cuBLAS needs one).
pub(crate) fn blas_operand(
    rows: usize,
    cols: usize,
    r_stride: isize,
    c_stride: isize,
) -> Option<BlasOperand> {
    let (rows, cols) = (rows as i64, cols as i64);
    // A dimension of size 1 may have any stride.
    let r1 = r_stride == 1 || rows == 1;
    let c1 = c_stride == 1 || cols == 1;
    if r1 && (c_stride as i64 >= rows.max(1) || cols == 1) {
        Some(BlasOperand {
            transpose: false,
            ld: (c_stride as i64).max(rows.max(1)),
        })
    } else if c1 && (r_stride as i64 >= cols.max(1) || rows == 1) {
        Some(BlasOperand {
            transpose: true,
            ld: (r_stride as i64).max(cols.max(1)),
        })
    } else {
        None
    }
}

impl Cublas {
    /// A handle bound to `stream` (a CUstream of the current context).
    pub fn new(stream: *mut std::ffi::c_void) -> Result<Cublas, DeviceError> {
        if !present() {
            return Err(DeviceError::Unavailable("libcublas not found".into()));
        }
        let mut handle: cb::cublasHandle_t = std::ptr::null_mut();
        guarded("cublasCreate", || {
            // SAFETY: out-pointer to a handle; destroyed in Drop.
            status("cublasCreate", unsafe { cb::cublasCreate_v2(&mut handle) })
        })?;
        let c = Cublas { handle };
        guarded("cublasSetStream", || {
            // SAFETY: a valid handle and stream.
            status("cublasSetStream", unsafe {
                cb::cublasSetStream_v2(c.handle, stream.cast())
            })
        })?;
        Ok(c)
    }

    /// Gives cuBLAS `bytes` of workspace at `ptr` (allocated by the caller through the caching
    /// allocator and kept alive as long as the handle is used).
    pub fn set_workspace(&self, ptr: DevicePtr, bytes: u64) -> Result<(), DeviceError> {
        guarded("cublasSetWorkspace", || {
            // SAFETY: `ptr` is device memory of `bytes` bytes owned by the caller.
            status("cublasSetWorkspace", unsafe {
                cb::cublasSetWorkspace_v2(self.handle, ptr.0 as *mut _, bytes as usize)
            })
        })
    }

    /// [`Gemm`]'s product with cuBLAS's strided-batched gemm. `Unsupported` when an operand
    /// cannot be described to cuBLAS.
    pub fn gemm(&self, g: &Gemm) -> Result<(), DeviceError> {
        let int = |v: i64| {
            i32::try_from(v).map_err(|_| {
                DeviceError::Unsupported("a matrix too large for cuBLAS's 32-bit sizes".into())
            })
        };
        // Column-major view: X (n x m, ld ldc) = Bt (n x k) * At (k x m).
        let bt = blas_operand(g.n, g.k, g.b.2, g.b.1)
            .ok_or_else(|| DeviceError::Unsupported("B's layout".into()))?;
        let at = blas_operand(g.k, g.m, g.a.2, g.a.1)
            .ok_or_else(|| DeviceError::Unsupported("A's layout".into()))?;
        if (g.c.1 as i64) < g.n.max(1) as i64 {
            return Err(DeviceError::Unsupported("C's row stride".into()));
        }
        let op = |t: bool| {
            if t {
                cb::cublasOperation_t::CUBLAS_OP_T
            } else {
                cb::cublasOperation_t::CUBLAS_OP_N
            }
        };
        let (nn, mm, kk) = (int(g.n as i64)?, int(g.m as i64)?, int(g.k as i64)?);
        let (ldb, lda, ldc) = (int(bt.ld)?, int(at.ld)?, int(g.c.1 as i64)?);
        let count = int(g.batch as i64)?;
        // The precisions differ only in the entry point, the element type and the type of
        // alpha and beta.
        macro_rules! strided_batched {
            ($entry:ident, $t:ty, $alpha:expr, $beta:expr) => {{
                let (al, be): ($t, $t) = ($alpha, $beta);
                guarded(stringify!($entry), || {
                    // SAFETY: device pointers and strides describe the caller's matrices.
                    status(stringify!($entry), unsafe {
                        cb::$entry(
                            self.handle,
                            op(bt.transpose),
                            op(at.transpose),
                            nn,
                            mm,
                            kk,
                            &al,
                            g.b.0.0 as *const $t,
                            ldb,
                            g.b.3 as i64,
                            g.a.0.0 as *const $t,
                            lda,
                            g.a.3 as i64,
                            &be,
                            g.c.0.0 as *mut $t,
                            ldc,
                            g.c.2 as i64,
                            count,
                        )
                    })
                })
            }};
        }
        match g.elem {
            Elem::F32 => {
                strided_batched!(
                    cublasSgemmStridedBatched,
                    f32,
                    g.alpha as f32,
                    g.beta as f32
                )
            }
            Elem::F64 => strided_batched!(cublasDgemmStridedBatched, f64, g.alpha, g.beta),
            _ => Err(DeviceError::Unsupported(format!("matmul of {:?}", g.elem))),
        }
    }
}

impl Drop for Cublas {
    fn drop(&mut self) {
        let _ = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: the handle was created by cublasCreate and is destroyed once.
            unsafe { cb::cublasDestroy_v2(self.handle) }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_sizes_follow_pytorchs_config_rules() {
        assert_eq!(workspace_size(None, 9), 32 << 20);
        assert_eq!(workspace_size(None, 8), (4096 * 2 + 16 * 8) << 10);
        assert_eq!(workspace_size(Some(":16:8"), 9), 128 << 10);
        assert_eq!(
            workspace_size(Some(":4096:2:16:8"), 9),
            (4096 * 2 + 16 * 8) << 10
        );
        // Malformed values fall back to the default.
        assert_eq!(workspace_size(Some("4096:8"), 9), 32 << 20);
        assert_eq!(workspace_size(Some(":x:8"), 9), 32 << 20);
    }

    #[test]
    fn operands_map_to_cublas_transposes_or_are_refused() {
        // Row-major B [k=4, n=3] contiguous: Bt (n x k) col-major, element (j, q) at j + 3q.
        assert_eq!(
            blas_operand(3, 4, 1, 3),
            Some(BlasOperand {
                transpose: false,
                ld: 3
            })
        );
        // nn.Linear's weight [n=3, k=4] used as w.t(): element (j, q) at 4j + q -> transposed.
        assert_eq!(
            blas_operand(3, 4, 4, 1),
            Some(BlasOperand {
                transpose: true,
                ld: 4
            })
        );
        // Neither stride 1: refused, matmul.cu runs it.
        assert_eq!(blas_operand(3, 4, 2, 6), None);
    }
}

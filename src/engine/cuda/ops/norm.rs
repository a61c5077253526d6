//! The launch of reduce.cu's vector norm (one block of [`REDUCE_THREADS`] per output, as the
//! other reductions).

use super::{Elem, Kernels, grid_for};
use crate::engine::cuda::kernels::REDUCE_THREADS;
use crate::engine::cuda::launch::{
    CtReduceGeom, DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig,
};

/// The launch of a reduce.cu kernel that takes one float parameter (norm's p, var's
/// correction) in the kernel's precision after the geometry: one block per output, the
/// arguments begun as `(geom, param)`. None when there is no output to launch for; `what`
/// names the op in the error for an element type the kernels lack.
pub(super) fn float_param_reduce_launch(
    elem: Elem,
    geom: CtReduceGeom,
    param: f64,
    what: &str,
) -> Result<Option<(LaunchConfig, KernelArgs)>, DeviceError> {
    let n_out = geom.outer.saturating_mul(geom.inner).max(0) as u64;
    if n_out == 0 {
        return Ok(None);
    }
    let cfg = LaunchConfig::new(Dim3::x(grid_for(n_out, 1, 65535)), Dim3::x(REDUCE_THREADS));
    let mut args = KernelArgs::new().arg(geom);
    match elem {
        Elem::F32 => args.push(param as f32),
        Elem::F64 => args.push(param),
        _ => return Err(DeviceError::Unsupported(format!("{what} of {elem:?}"))),
    };
    Ok(Some((cfg, args)))
}

impl Kernels<'_> {
    /// The `p`-norm over the middle dimension of `geom` (float `elem`); `out` is contiguous
    /// [outer, inner].
    pub fn norm(
        &self,
        elem: Elem,
        geom: CtReduceGeom,
        p: f64,
        input: DevicePtr,
        out: DevicePtr,
    ) -> Result<(), DeviceError> {
        let Some((cfg, mut args)) = float_param_reduce_launch(elem, geom, p, "norm")? else {
            return Ok(());
        };
        args.push(input);
        args.push(out);
        self.launch(&format!("norm_{}", elem.suffix()), cfg, &args)
    }
}

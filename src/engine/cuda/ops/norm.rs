//! The launch of reduce.cu's vector norm (one block of [`REDUCE_THREADS`] per output, as the
//! other reductions).

use super::{Elem, Kernels, grid_for};
use crate::engine::cuda::kernels::REDUCE_THREADS;
use crate::engine::cuda::launch::{
    CtReduceGeom, DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig,
};

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
        let n_out = geom.outer.saturating_mul(geom.inner).max(0) as u64;
        if n_out == 0 {
            return Ok(());
        }
        let cfg = LaunchConfig::new(Dim3::x(grid_for(n_out, 1, 65535)), Dim3::x(REDUCE_THREADS));
        let mut args = KernelArgs::new().arg(geom);
        match elem {
            Elem::F32 => args.push(p as f32),
            Elem::F64 => args.push(p),
            _ => return Err(DeviceError::Unsupported(format!("norm of {elem:?}"))),
        };
        args.push(input);
        args.push(out);
        self.launch(&format!("norm_{}", elem.suffix()), cfg, &args)
    }
}

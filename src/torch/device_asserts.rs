//! Device-side asserts of kernels the engine computes on the host: `binary_cross_entropy` on a
//! CUDA tensor.
//!
//! On the CPU, PyTorch 2.15 checks BCE's input and target on the host and raises
//! `RuntimeError: all elements of input should be between 0 and 1` (the engine does the same).
//! On CUDA the check is a `CUDA_KERNEL_ASSERT` inside the kernel
//! (aten/src/ATen/native/cuda/Loss.cu, binary_cross_entropy_out_cuda): nothing is raised at the
//! call; the device log gets one `Assertion ... failed.` line per failing thread and the
//! context is broken, exactly like the nll_loss assert. This file launches that failing kernel
//! through the runtime, so the deferred report, the sticky error and CUDA_LAUNCH_BLOCKING all
//! behave as for nll_loss.

use crate::engine::timing::Cost;
use crate::engine::{DType, Device, Reduction, Result, Runtime, Tensor};

/// Loss.cu as the 2.15 wheel's `__FILE__` names it (the lines below are read from PyTorch's
/// source, not from the wheel's SASS as the nll_loss ones are).
const LOSS_CU: &str = "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu";
/// Source lines of the two asserts (the lambda in binary_cross_entropy_out_cuda).
const INPUT_ASSERT: (&str, &str) = ("90", "input_val >= zero && input_val <= one");
const TARGET_ASSERT: (&str, &str) = ("91", "target_val >= zero && target_val <= one");
/// gpu_kernel's launch shape: 128 threads a block, 4 elements a thread (one block holds 512).
const THREADS: usize = 128;
const BLOCK_WORK: usize = 512;
/// Most lines one kernel prints into the device log here (as for nll_loss).
const MAX_LINES: usize = 64;

fn out_of_unit(v: f64) -> bool {
    !(0.0..=1.0).contains(&v) // NaN too
}

/// When `input` and `target` are CUDA tensors of one shape on one device and some element is
/// outside [0, 1], launch the failing kernel and return its (unreadable) result; None lets the
/// engine compute the loss (valid values, CPU tensors, and every host-side error).
pub(crate) fn binary_cross_entropy_cuda(
    rt: &Runtime,
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    reduction: Reduction,
) -> Option<Result<Tensor>> {
    let dev = match input.device() {
        Device::Cuda(i) => i,
        _ => return None,
    };
    if target.device() != input.device()
        || target.shape() != input.shape()
        || !matches!(
            input.dtype(),
            DType::Float32 | DType::Float64 | DType::Float16
        )
        || weight.is_some_and(|w| w.device() != input.device() || w.shape() != input.shape())
    {
        return None;
    }
    let xs = input.values_unchecked();
    let ys = target.values_unchecked();
    if xs.len() != input.numel() || ys.len() != target.numel() {
        return None; // values not kept (a phantom): nothing to check
    }
    // each failing thread prints one line: the input assert comes first in the lambda
    let mut lines = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (i, (&x, &y)) in xs.iter().zip(&ys).enumerate() {
        let (line, cond) = if out_of_unit(x) {
            INPUT_ASSERT
        } else if out_of_unit(y) {
            TARGET_ASSERT
        } else {
            continue;
        };
        let (block, thread) = (i / BLOCK_WORK, (i % BLOCK_WORK) % THREADS);
        if !seen.insert((block, thread)) || lines.len() >= MAX_LINES {
            continue;
        }
        lines.push(format!(
            "{LOSS_CU}:{line}: operator(): block: [{block},0,0], thread: [{thread},0,0] Assertion `{cond}` failed."
        ));
    }
    if lines.is_empty() {
        return None;
    }
    rt.note_outside_unit_interval("binary_cross_entropy", input, target);
    let shape = match reduction {
        Reduction::None => input.shape().to_vec(),
        _ => Vec::new(),
    };
    let cost = Cost::new(
        (input.numel() * input.dtype().element_size() * 3) as u64,
        8 * input.numel() as u64,
    );
    Some((|| {
        // the result's memory is allocated before the launch; its values never arrive
        let mut out = rt.alloc_tensor(shape, input.dtype(), input.device(), None, false)?;
        // it takes part in autograd (backward() enqueues its work, and the pending assert
        // surfaces at a later call), but no gradient is ever computed from it
        out.requires_grad = input.requires_grad;
        rt.launch("binary_cross_entropy", dev, cost, lines)?;
        Ok(out)
    })())
}

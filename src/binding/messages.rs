//! PyTorch 2.15's wording of engine messages whose older wording the engine still builds.
//!
//! The per-argument device check (aten/src/ATen/core/adaption.cpp, `common_device_check_failure`)
//! says in 2.15: `Expected all tensors to be on the same device, but got mat1 is on cpu,
//! different from other tensors on cuda:0 (when checking argument in method
//! wrapper_CUDA_addmm)`. The older "found at least two devices, A and B! (when checking
//! argument for argument NAME in method M)" is not in the 2.15 wheel (pytorch-facts.md). The
//! elementwise check (TensorIterator) keeps "found at least two devices, A and B!" without a
//! parenthesis, and is left alone.

const OLD_HEAD: &str =
    "Expected all tensors to be on the same device, but found at least two devices, ";
const OLD_ARG: &str = "! (when checking argument for argument ";
const OLD_METHOD: &str = " in method ";

/// The 2.15 text for a per-argument device mismatch in the old wording; None for any other
/// message.
pub(crate) fn device_check_2_15(message: &str) -> Option<String> {
    let rest = message.strip_prefix(OLD_HEAD)?;
    let (devices, rest) = rest.split_once(OLD_ARG)?;
    let (common, other) = devices.split_once(" and ")?;
    let (arg, rest) = rest.split_once(OLD_METHOD)?;
    let method = rest.strip_suffix(')')?;
    if [common, other, arg, method]
        .iter()
        .any(|s| s.is_empty() || s.contains(char::is_whitespace))
    {
        return None;
    }
    Some(format!(
        "Expected all tensors to be on the same device, but got {arg} is on {other}, different from other tensors on {common} (when checking argument in method {method})"
    ))
}

#[cfg(test)]
mod tests {
    use super::device_check_2_15;

    #[test]
    fn the_addmm_mismatch_reads_as_in_2_15() {
        let old = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)";
        assert_eq!(
            device_check_2_15(old).unwrap(),
            "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)"
        );
        let elementwise = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!";
        assert!(device_check_2_15(elementwise).is_none());
    }
}

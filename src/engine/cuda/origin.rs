//! Which launch failed. On a real GPU the device-side assert surfaces as error 710 at some
//! later call, which says nothing about the kernel; the driver's printed line does: it names
//! PyTorch's file and the kernel's function. [`failing_launch`] matches that line against the
//! launches since the device was last known good, so the report's `origin_line` is the line
//! that launched the failing kernel, as on the emulated device and the sim.

/// A launch the engine made: its entry name and the script line that issued it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launched {
    pub entry: String,
    pub line: u32,
}

/// (PyTorch file the assert names, function it names, entry-name prefixes of our kernels that
/// print it).
const ASSERT_SOURCES: &[(&str, &str, &[&str])] = &[
    (
        "Loss.cu",
        "nll_loss_forward_reduce_cuda_kernel_2d",
        &["nll_loss_forward_reduce_cuda_kernel_2d_"],
    ),
    (
        "Loss.cu",
        "nll_loss_forward_reduce_cuda_kernel_1d",
        &["nll_loss_forward_reduce_cuda_kernel_1d_"],
    ),
    (
        "Loss.cu",
        "nll_loss_forward_no_reduce_cuda_kernel",
        &["nll_loss_forward_no_reduce_cuda_kernel_"],
    ),
    (
        "Indexing.cu",
        "indexSelectSmallIndex",
        &["index_select_small_", "embedding_small_"],
    ),
    (
        "Indexing.cu",
        "indexSelectLargeIndex",
        &["index_select_large_", "embedding_large_"],
    ),
    ("ScatterGatherKernel.cu", "operator()", &["gather_"]),
    // `index_<dtype>`, not `index_select_*`.
    (
        "IndexKernel.cu",
        "operator()",
        &[
            "index_f32",
            "index_f64",
            "index_i64",
            "index_i32",
            "index_u8",
            "index_bool",
        ],
    ),
];

/// The entry-name prefixes whose kernels print `line` (an assert line of the device log).
pub fn entries_printing(line: &str) -> &'static [&'static str] {
    // `<path>/<File>.cu:<line>: <function>: block: ...`
    let Some((location, rest)) = line.split_once(": ") else {
        return &[];
    };
    let file = location.rsplit('/').next().unwrap_or("");
    let file = file.split(':').next().unwrap_or("");
    let function = rest.split(": block:").next().unwrap_or("");
    ASSERT_SOURCES
        .iter()
        .find(|(f, func, _)| *f == file && *func == function)
        .map(|(_, _, prefixes)| *prefixes)
        .unwrap_or(&[])
}

/// The launch that failed: the first of `launches` (in order, since the device was last known
/// good) whose kernel prints one of the `device_log` lines. None when no line names a kernel
/// of ours (the caller then falls back to the last launch).
pub fn failing_launch<'a>(device_log: &[String], launches: &'a [Launched]) -> Option<&'a Launched> {
    let prefixes: Vec<&str> = device_log
        .iter()
        .flat_map(|l| entries_printing(l).iter().copied())
        .collect();
    launches
        .iter()
        .find(|l| prefixes.iter().any(|p| l.entry.starts_with(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launched(entry: &str, line: u32) -> Launched {
        Launched {
            entry: entry.into(),
            line,
        }
    }

    #[test]
    fn the_first_matching_launch_since_the_last_good_point_is_the_origin() {
        let log = vec!["/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.".to_string()];
        let launches = [
            launched("log_softmax_f32", 9),
            launched("nll_loss_forward_reduce_cuda_kernel_2d_f32_i64", 9),
            launched("mul_scalar_f32", 10),
            launched("nll_loss_forward_reduce_cuda_kernel_2d_f32_i64", 14),
        ];
        assert_eq!(failing_launch(&log, &launches).map(|l| l.line), Some(9));
    }

    #[test]
    fn operator_lambdas_are_told_apart_by_file() {
        let gather = "/x/ScatterGatherKernel.cu:257: operator(): block: [0,0,0], thread: [1,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.";
        let index = "/x/IndexKernel.cu:111: operator(): block: [0,0,0], thread: [1,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.";
        assert_eq!(entries_printing(gather), &["gather_"]);
        assert!(entries_printing(index).contains(&"index_f32"));
        let launches = [
            launched("gather_f32", 3),
            launched("index_select_small_f32", 4),
            launched("index_f32", 5),
        ];
        assert_eq!(
            failing_launch(&[index.to_string()], &launches).map(|l| l.line),
            Some(5)
        );
        assert_eq!(
            failing_launch(&[gather.to_string()], &launches).map(|l| l.line),
            Some(3)
        );
        assert_eq!(entries_printing("no assert here"), &[] as &[&str]);
        assert!(failing_launch(&["garbage".to_string()], &launches).is_none());
    }
}

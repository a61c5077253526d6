//! The CUDA C kernel sources (kernels/*.cu), embedded with `include_str!`, and the
//! `extern "C"` entry points each file defines.
//!
//! Every file is compiled on its own, after [`COMMON`] (typedefs, the strided-index helper,
//! `CUDA_KERNEL_ASSERT`), with a `#line 1 "<file>"` directive in between so NVRTC's errors and
//! the device-side assert messages carry the kernel file's own line numbers. The expected entry
//! names are generated here from the same dtype lists as the macros in the .cu files; the test
//! `tests/kernels_compile.rs` checks that the PTX defines exactly these entries.

/// Shared prelude prepended to every kernel file.
pub(crate) const COMMON: &str = include_str!("../../../kernels/common.cu");

/// Every dtype suffix, in the order of `CT_FOR_ALL_DTYPES` in common.cu.
pub(crate) const ALL_DTYPES: &[&str] = &["f32", "f64", "i64", "i32", "u8", "bool"];
/// `CT_FOR_NUMERIC_DTYPES`.
pub(crate) const NUMERIC_DTYPES: &[&str] = &["f32", "f64", "i64", "i32", "u8"];
/// `CT_FOR_FLOAT_DTYPES`.
pub(crate) const FLOAT_DTYPES: &[&str] = &["f32", "f64"];
/// `CT_FOR_INT_DTYPES`.
pub(crate) const INT_DTYPES: &[&str] = &["i64", "i32", "u8"];

/// Threads per block the reduction kernels (reduce.cu) must be launched with.
pub(crate) const REDUCE_THREADS: u32 = 256;
/// Threads per block for softmax.cu.
pub(crate) const SOFTMAX_THREADS: u32 = 256;
/// Threads per block for the 2-d nll_loss reduction (PyTorch's NLL_LOSS_THREADS).
pub(crate) const NLL_LOSS_THREADS: u32 = 32;
/// Tile edge of matmul.cu (block = TILE x TILE threads).
pub(crate) const MATMUL_TILE: u32 = 16;

/// One kernel file.
#[derive(Debug, Clone, Copy)]
pub struct KernelFile {
    /// File name, e.g. `"loss.cu"`; also the NVRTC program name, so `__FILE__` is this.
    pub file: &'static str,
    /// The file's own text (without [`COMMON`]).
    pub source: &'static str,
    entries: fn() -> Vec<String>,
}

impl KernelFile {
    /// The text handed to NVRTC: [`COMMON`], then `#line 1 "<file>"`, then the file.
    pub fn full_source(&self) -> String {
        full_source(self.file, self.source)
    }

    /// The `extern "C"` entry points this file defines.
    pub fn entries(&self) -> Vec<String> {
        (self.entries)()
    }
}

/// [`COMMON`] + `#line` + `source`, for any kernel text (also used for test sources).
pub fn full_source(file: &str, source: &str) -> String {
    format!("{COMMON}\n#line 1 \"{file}\"\n{source}")
}

fn names(ops: &[&str], dtypes: &[&str]) -> Vec<String> {
    ops.iter()
        .flat_map(|op| dtypes.iter().map(move |d| format!("{op}_{d}")))
        .collect()
}

fn fill_entries() -> Vec<String> {
    let mut v = names(&["fill", "fill_strided"], ALL_DTYPES);
    v.extend(names(&["arange"], &["f32", "f64", "i64", "i32"]));
    v.push("fill_b16".into());
    v
}

fn random_entries() -> Vec<String> {
    let mut v = names(&["uniform", "normal"], FLOAT_DTYPES);
    v.extend(names(&["randint"], NUMERIC_DTYPES));
    v.extend(names(&["bernoulli_scalar"], ALL_DTYPES));
    v.extend(names(&["bernoulli_tensor"], FLOAT_DTYPES));
    v.extend(names(&["exponential"], FLOAT_DTYPES));
    v.push("dropout_noise_f32".into());
    v.push("normal_f16".into());
    v
}

/// The unary entry points elementwise.cu defines, read from its `CT_UNARY(name, functor, T,
/// S)` lines: one inside a `#define GROUP(T, S)` that `CT_FOR_<KIND>_DTYPES(GROUP)` expands for
/// each of KIND's dtypes, or one at the top level with its suffix written out
/// (`logical_not_bool`). Adding a unary kernel is then the .cu line and the op table's
/// `cuda: "name"`; tests/kernels_compile.rs checks the list against the compiled PTX.
pub(crate) fn unary_entries() -> Vec<String> {
    fn calls(text: &str) -> impl Iterator<Item = (&str, &str)> {
        text.split("CT_UNARY(").skip(1).filter_map(|call| {
            let args: Vec<&str> = call.split(')').next()?.split(',').map(str::trim).collect();
            (args.len() == 4).then(|| (args[0], args[3]))
        })
    }
    let text = include_str!("../../../kernels/elementwise.cu").replace("\\\n", " ");
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#define ") {
            let name = rest.split('(').next().unwrap_or("");
            let ops: Vec<&str> = calls(rest)
                .filter(|&(_, s)| s == "S")
                .map(|(n, _)| n)
                .collect();
            if name != "CT_UNARY" && !ops.is_empty() {
                groups.push((name, ops));
            }
        } else if let Some(rest) = line.strip_prefix("CT_FOR_") {
            let Some((kind, group)) = rest.split_once("_DTYPES(") else {
                continue;
            };
            let dtypes = match kind {
                "ALL" => ALL_DTYPES,
                "NUMERIC" => NUMERIC_DTYPES,
                "FLOAT" => FLOAT_DTYPES,
                "INT" => INT_DTYPES,
                _ => continue,
            };
            let group = group.trim_end_matches(')');
            if let Some((_, ops)) = groups.iter().find(|(g, _)| *g == group) {
                out.extend(names(ops, dtypes));
            }
        } else {
            out.extend(calls(line).map(|(n, s)| format!("{n}_{s}")));
        }
    }
    out
}

fn elementwise_entries() -> Vec<String> {
    let mut v = unary_entries();
    v.extend(names(
        &["add", "sub", "mul", "maximum", "minimum"],
        NUMERIC_DTYPES,
    ));
    v.extend(names(&["div", "pow"], FLOAT_DTYPES));
    v.extend(names(
        &[
            "add",
            "mul",
            "maximum",
            "minimum",
            "logical_and",
            "logical_or",
            "logical_xor",
        ],
        &["bool"],
    ));
    let mut bitwise_dtypes = INT_DTYPES.to_vec();
    bitwise_dtypes.push("bool");
    v.extend(names(
        &["bitwise_and", "bitwise_or", "bitwise_xor"],
        &bitwise_dtypes,
    ));
    v.extend(names(&["where"], ALL_DTYPES));
    v.extend(names(
        &[
            "add_scalar",
            "sub_scalar",
            "mul_scalar",
            "maximum_scalar",
            "minimum_scalar",
            "sub_rscalar",
        ],
        NUMERIC_DTYPES,
    ));
    v.extend(names(
        &["pow_scalar", "pow_rscalar", "div_rscalar"],
        FLOAT_DTYPES,
    ));
    v.extend(names(&["add_alpha"], NUMERIC_DTYPES));
    v.extend(names(
        &["sigmoid_backward", "tanh_backward", "threshold_backward"],
        FLOAT_DTYPES,
    ));
    v
}

fn compare_entries() -> Vec<String> {
    let mut v = names(&["eq", "ne", "lt", "le", "gt", "ge"], ALL_DTYPES);
    v.extend(names(
        &[
            "eq_scalar",
            "ne_scalar",
            "lt_scalar",
            "le_scalar",
            "gt_scalar",
            "ge_scalar",
        ],
        ALL_DTYPES,
    ));
    v.extend(names(&["isnan"], FLOAT_DTYPES));
    v.extend(names(&["isinf", "isfinite"], FLOAT_DTYPES));
    v
}

fn reduce_entries() -> Vec<String> {
    let mut v = names(&["sum"], ALL_DTYPES);
    v.extend(names(&["mean"], FLOAT_DTYPES));
    v.extend(names(
        &["max", "min", "argmax", "argmin", "any", "all"],
        ALL_DTYPES,
    ));
    v.extend(names(&["var", "norm"], FLOAT_DTYPES));
    v
}

fn softmax_entries() -> Vec<String> {
    names(
        &[
            "softmax",
            "log_softmax",
            "softmax_backward",
            "log_softmax_backward",
        ],
        FLOAT_DTYPES,
    )
}

fn loss_entries() -> Vec<String> {
    let kernels = [
        "nll_loss_forward_reduce_cuda_kernel_2d",
        "nll_loss_forward_reduce_cuda_kernel_1d",
        "nll_loss_forward_no_reduce_cuda_kernel",
    ];
    let backward = [
        "nll_loss_backward_reduce_cuda_kernel_2d",
        "nll_loss_backward_no_reduce_cuda_kernel",
    ];
    let mut v = Vec::new();
    for t in FLOAT_DTYPES {
        for i in ["i64", "u8"] {
            v.extend(kernels.iter().map(|k| format!("{k}_{t}_{i}")));
        }
    }
    for t in FLOAT_DTYPES {
        for i in ["i64", "u8"] {
            v.extend(backward.iter().map(|k| format!("{k}_{t}_{i}")));
        }
    }
    v
}

fn index_entries() -> Vec<String> {
    let mut v = names(&["gather"], ALL_DTYPES);
    for kind in ["index_select_small", "index_select_large"] {
        for d in ALL_DTYPES {
            v.push(format!("{kind}_{d}"));
            v.push(format!("{kind}_{d}_i32"));
        }
    }
    for kind in ["embedding_small", "embedding_large"] {
        for d in FLOAT_DTYPES {
            v.push(format!("{kind}_{d}"));
            v.push(format!("{kind}_{d}_i32"));
        }
    }
    v.extend(names(&["index"], ALL_DTYPES));
    for d in FLOAT_DTYPES {
        v.push(format!("index_add_{d}"));
        v.push(format!("index_add_{d}_i32"));
    }
    v
}

fn scan_entries() -> Vec<String> {
    names(&["cumsum", "cumprod"], ALL_DTYPES)
}

fn matmul_entries() -> Vec<String> {
    vec!["sgemm".into(), "dgemm".into()]
}

fn copy_entries() -> Vec<String> {
    let mut v = Vec::new();
    for s in ALL_DTYPES {
        for d in ALL_DTYPES {
            v.push(format!("copy_{s}_to_{d}"));
        }
    }
    v
}

macro_rules! kernel_file {
    ($file:literal, $entries:ident) => {
        KernelFile {
            file: $file,
            source: include_str!(concat!("../../../kernels/", $file)),
            entries: $entries,
        }
    };
}

/// Every kernel file, one per op family.
pub static KERNEL_FILES: &[KernelFile] = &[
    kernel_file!("fill.cu", fill_entries),
    kernel_file!("random.cu", random_entries),
    kernel_file!("elementwise.cu", elementwise_entries),
    kernel_file!("compare.cu", compare_entries),
    kernel_file!("reduce.cu", reduce_entries),
    kernel_file!("scan.cu", scan_entries),
    kernel_file!("softmax.cu", softmax_entries),
    kernel_file!("loss.cu", loss_entries),
    kernel_file!("index.cu", index_entries),
    kernel_file!("matmul.cu", matmul_entries),
    kernel_file!("copy.cu", copy_entries),
];

/// The kernel file named `file` (e.g. `"loss.cu"`).
pub fn kernel_file(file: &str) -> Option<&'static KernelFile> {
    KERNEL_FILES.iter().find(|k| k.file == file)
}

/// The file that defines entry point `entry` (e.g. `"add_f32"` -> elementwise.cu).
pub(crate) fn file_for_entry(entry: &str) -> Option<&'static KernelFile> {
    KERNEL_FILES
        .iter()
        .find(|k| k.entries().iter().any(|e| e == entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn entry_names_are_unique_across_files() {
        let mut seen = HashSet::new();
        for k in KERNEL_FILES {
            for e in k.entries() {
                assert!(seen.insert(e.clone()), "{e} defined twice ({})", k.file);
            }
        }
        assert!(seen.contains("add_f32"));
        assert!(seen.contains("nll_loss_forward_reduce_cuda_kernel_2d_f32_i64"));
    }

    #[test]
    fn unary_entries_are_read_from_the_file_with_each_groups_dtypes() {
        let e = unary_entries();
        for want in [
            "neg_u8",
            "relu_i64",
            "exp_f32",
            "frac_f64",
            "logical_not_bool",
        ] {
            assert!(e.iter().any(|x| x == want), "{want} missing from {e:?}");
        }
        for absent in [
            "neg_bool",
            "exp_i64",
            "logical_not_f32",
            "CT_UNARY_S",
            "NAME_S",
        ] {
            assert!(!e.iter().any(|x| x == absent), "{absent} listed");
        }
    }

    #[test]
    fn every_cuda_kernel_an_op_names_is_defined_in_elementwise_cu() {
        let e = unary_entries();
        for name in crate::engine::op::UnaryOp::CUDA_KERNELS {
            let prefix = format!("{name}_");
            assert!(
                e.iter().any(|x| x.starts_with(&prefix)),
                "the op table names CUDA kernel {name}, which elementwise.cu does not define"
            );
        }
    }

    #[test]
    fn sources_have_no_includes_and_use_extern_c() {
        for k in KERNEL_FILES
            .iter()
            .map(|k| (k.file, k.source))
            .chain([("common.cu", COMMON)])
        {
            assert!(!k.1.contains("#include"), "{}: NVRTC has no headers", k.0);
        }
        for k in KERNEL_FILES {
            assert!(k.source.contains("extern \"C\" __global__"), "{}", k.file);
        }
    }

    /// Every `#line N "<file>"` that hands the numbering back to the kernel file after a
    /// PyTorch location must name the next physical line, so compile errors and every other
    /// line keep the file's own numbers.
    #[test]
    fn line_directives_restore_the_files_own_numbering() {
        for k in KERNEL_FILES {
            let restore = format!("\"{}\"", k.file);
            let mut pytorch_marks = 0;
            for (i, line) in k.source.lines().enumerate() {
                let Some(rest) = line.strip_prefix("#line ") else {
                    continue;
                };
                let (num, name) = rest.split_once(' ').unwrap();
                let num: usize = num.parse().unwrap();
                if name == restore {
                    assert_eq!(num, i + 2, "{}:{}: {line}", k.file, i + 1);
                } else {
                    assert!(name.starts_with("CT_") && name.ends_with("_CU"), "{line}");
                    let next = k.source.lines().nth(i + 2).unwrap_or("");
                    assert_eq!(
                        next,
                        format!("#line {} {restore}", i + 4),
                        "{}:{}",
                        k.file,
                        i + 1
                    );
                    pytorch_marks += 1;
                }
            }
            if k.file == "loss.cu" {
                assert_eq!(pytorch_marks, 4);
            }
            if k.file == "index.cu" {
                assert_eq!(pytorch_marks, 4);
            }
        }
    }

    #[test]
    fn lookup_by_entry() {
        assert_eq!(file_for_entry("sgemm").unwrap().file, "matmul.cu");
        assert_eq!(file_for_entry("copy_bool_to_f32").unwrap().file, "copy.cu");
        assert!(file_for_entry("nope").is_none());
        assert!(
            kernel_file("loss.cu")
                .unwrap()
                .full_source()
                .contains("#line 1 \"loss.cu\"")
        );
    }
}

//! Every kernel file compiles with NVRTC for sm_80 and sm_90 and defines exactly the entry
//! points src/engine/cuda/kernels.rs lists; compile errors come back as errors with NVRTC's
//! log; the PTX cache serves a second request without compiling; the driver probe never panics.
//!
//! Needs NVRTC (no GPU): run `source scripts/nvrtc-env.sh` first. Without it these tests FAIL
//! and say so, unless CUDATUTOR_SKIP_NVRTC=1 is set explicitly.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use cudatutor::engine::cuda::cache::PtxCache;
use cudatutor::engine::cuda::kernels::{self, KERNEL_FILES, KernelFile};
use cudatutor::engine::cuda::nvrtc::{self, CI_ARCHES, Nvrtc, NvrtcError};
use cudatutor::engine::cuda::probe::{self, DriverStatus};

/// NVRTC, or None when skipping was asked for explicitly; otherwise a missing NVRTC fails.
fn nvrtc_or_fail() -> Option<Nvrtc> {
    if std::env::var("CUDATUTOR_SKIP_NVRTC").as_deref() == Ok("1") {
        eprintln!("CUDATUTOR_SKIP_NVRTC=1: skipping the NVRTC kernel compile check");
        return None;
    }
    match nvrtc::locate() {
        Ok(n) => Some(n),
        Err(e) => panic!(
            "NVRTC is needed to check that the CUDA kernels compile, and was not found:\n  {e}\n\
             Run `source scripts/nvrtc-env.sh` (installs the PyPI wheel nvidia-cuda-nvrtc into \
             .venv/ and exports CUDATUTOR_NVRTC_LIB), then rerun the tests. To skip this check \
             deliberately, set CUDATUTOR_SKIP_NVRTC=1."
        ),
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("cudatutor-{tag}-{}-{nanos}", std::process::id()))
}

fn compile_file(n: &Nvrtc, k: &KernelFile, arch: &str) -> (String, Duration) {
    match n.compile(k.file, &k.full_source(), arch) {
        Ok(c) => (c.ptx, c.elapsed),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn every_kernel_file_compiles_for_sm80_and_sm90_with_its_entries() {
    let Some(n) = nvrtc_or_fail() else { return };
    eprintln!("NVRTC {} ({})", n.version_string(), n.found_by);
    // (file, arch) jobs spread over the available cores; elementwise.cu dominates.
    let jobs: Vec<(&KernelFile, &str)> = KERNEL_FILES
        .iter()
        .flat_map(|k| CI_ARCHES.iter().map(move |a| (k, *a)))
        .collect();
    let jobs = Mutex::new(jobs);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(2, |p| p.get())
        .min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some((k, arch)) = jobs.lock().unwrap().pop() else {
                        break;
                    };
                    let (ptx, t) = compile_file(&n, k, arch);
                    results.lock().unwrap().push((k.file, arch, ptx, t));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut failures = Vec::new();
    for (file, arch, ptx, t) in &results {
        let k = kernels::kernel_file(file).unwrap();
        let expected: BTreeSet<String> = k.entries().into_iter().collect();
        let found: BTreeSet<String> = nvrtc::ptx_entries(ptx).into_iter().collect();
        eprintln!(
            "compiled {file:<15} {arch}: {:>4} entries in {:>6.0} ms",
            found.len(),
            t.as_secs_f64() * 1000.0
        );
        assert!(
            ptx.contains(&format!(".target {arch}")),
            "{file}: PTX not for {arch}"
        );
        let missing: Vec<_> = expected.difference(&found).collect();
        let extra: Vec<_> = found.difference(&expected).collect();
        if !missing.is_empty() || !extra.is_empty() {
            failures.push(format!(
                "{file} ({arch}): missing entries {missing:?}; entries not listed in kernels.rs {extra:?}"
            ));
        }
    }
    assert_eq!(results.len(), KERNEL_FILES.len() * CI_ARCHES.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn device_asserts_carry_pytorchs_function_names_and_conditions() {
    let Some(n) = nvrtc_or_fail() else { return };
    let cases = DEVICE_ASSERTS;
    for (file, func, cond, path) in cases {
        let (ptx, _) = compile_file(&n, kernels::kernel_file(file).unwrap(), "sm_80");
        assert!(ptx.contains("__assertfail"), "{file}: no device assert");
        let strings = nvrtc::ptx_string_constants(&ptx);
        assert!(
            strings.iter().any(|s| s == func),
            "{file}: function name {func:?} not in {strings:?}"
        );
        assert!(
            strings.iter().any(|s| s == cond),
            "{file}: assert text {cond:?} not in {strings:?}"
        );
        assert!(
            strings.iter().any(|s| s == path),
            "{file}: __FILE__ at the assert is not PyTorch's {path}: {strings:?}"
        );
    }
}

/// (kernel file, function the assert names, condition, PyTorch 2.15's file the #line names).
const DEVICE_ASSERTS: &[(&str, &str, &str, &str)] = &[
    (
        "loss.cu",
        "nll_loss_forward_reduce_cuda_kernel_2d",
        "t >= 0 && t < n_classes",
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu",
    ),
    (
        "loss.cu",
        "nll_loss_forward_no_reduce_cuda_kernel",
        "cur_target >= 0 && cur_target < n_classes",
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu",
    ),
    (
        "index.cu",
        "indexSelectSmallIndex",
        "srcIndex < srcSelectDimSize",
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Indexing.cu",
    ),
    (
        "index.cu",
        "operator()",
        "idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"",
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu",
    ),
    (
        "index.cu",
        "operator()",
        "-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"",
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu",
    ),
];

/// The printable runs of at least `min` bytes in `bytes` (what `strings` prints).
fn printable_runs(bytes: &[u8], min: usize) -> Vec<String> {
    bytes
        .split(|b| !(0x20..0x7f).contains(b))
        .filter(|r| r.len() >= min)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect()
}

#[test]
fn cubin_for_sm80_and_sm90_is_elf_with_the_assert_strings_and_every_entry() {
    let Some(n) = nvrtc_or_fail() else { return };
    for arch in CI_ARCHES {
        for file in ["loss.cu", "index.cu"] {
            let k = kernels::kernel_file(file).unwrap();
            let c = n
                .compile_cubin(k.file, &k.full_source(), arch)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(nvrtc::is_elf(&c.cubin), "{file} {arch}: no ELF header");
            // ELF e_machine 190 = EM_CUDA.
            assert_eq!(
                u16::from_le_bytes([c.cubin[18], c.cubin[19]]),
                190,
                "{file} {arch}"
            );
            let strings = printable_runs(&c.cubin, 4);
            for (f, func, cond, path) in DEVICE_ASSERTS.iter().filter(|a| a.0 == file) {
                for want in [func, cond, path] {
                    assert!(
                        strings.iter().any(|s| s.contains(want)),
                        "{f} {arch}: {want:?} not in the CUBIN's strings"
                    );
                }
            }
            for e in k.entries() {
                assert!(
                    strings.iter().any(|s| s.contains(&e)),
                    "{file} {arch}: entry {e} not in the CUBIN's symbols"
                );
            }
            eprintln!(
                "{file} {arch}: CUBIN {} KiB in {:.0} ms",
                c.cubin.len() / 1024,
                c.elapsed.as_secs_f64() * 1000.0
            );
        }
    }
    // A virtual architecture has no CUBIN.
    let k = kernels::kernel_file("loss.cu").unwrap();
    assert!(
        n.compile_cubin(k.file, &k.full_source(), "compute_80")
            .is_err()
    );
}

/// What a cache test works on: a scratch folder of its own (`tag`) for the cache, and built-in
/// kernel `file` with its full source (COMMON prepended, as the engine compiles it).
fn cache_case(tag: &str, file: &str) -> (PathBuf, &'static KernelFile, String) {
    let k = kernels::kernel_file(file).unwrap();
    (temp_dir(tag), k, k.full_source())
}

#[test]
fn the_cache_keeps_cubin_beside_ptx_and_a_warm_lookup_compiles_nothing() {
    let Some(n) = nvrtc_or_fail() else { return };
    let (dir, k, src) = cache_case("cubin-cache", "softmax.cu");
    let cache = PtxCache::new(&dir);
    let first = cache
        .get_or_compile_cubin(&n, k.file, &src, "sm_90")
        .unwrap();
    assert!(!first.from_cache);
    assert!(first.path.extension().is_some_and(|e| e == "cubin"));
    let second = PtxCache::new(&dir)
        .get_or_compile_cubin(&n, k.file, &src, "sm_90")
        .unwrap();
    assert!(second.from_cache);
    assert_eq!(first.cubin, second.cubin);
    // A truncated file is not a hit: it is compiled and rewritten.
    let bytes = std::fs::read(&first.path).unwrap();
    std::fs::write(&first.path, &bytes[..bytes.len() / 2]).unwrap();
    let third = PtxCache::new(&dir);
    assert!(
        !third
            .get_or_compile_cubin(&n, k.file, &src, "sm_90")
            .unwrap()
            .from_cache
    );
    assert_eq!(third.compiles(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_kernel_is_a_compile_error_with_nvrtcs_log() {
    let Some(n) = nvrtc_or_fail() else { return };
    let src = kernels::full_source(
        "broken.cu",
        "extern \"C\" __global__ void broken(float* out) {\n  out[0] = undeclared_name;\n}\n",
    );
    match n.compile("broken.cu", &src, "sm_80") {
        Err(NvrtcError::Compile { file, arch, log }) => {
            assert_eq!((file.as_str(), arch.as_str()), ("broken.cu", "sm_80"));
            // #line 1 "broken.cu" makes NVRTC report the kernel file's own line 2.
            assert!(log.contains("broken.cu(2)"), "log: {log}");
            assert!(log.contains("undeclared_name"), "log: {log}");
            assert!(log.contains("error"), "log: {log}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    // Includes are not available in NVRTC: also an error, not a panic.
    assert!(matches!(
        n.compile("inc.cu", "#include <cassert>\n", "sm_80"),
        Err(NvrtcError::Compile { .. })
    ));
    // Bad input that cudarc would panic on (NUL byte) or a bogus arch: errors too.
    assert!(matches!(
        n.compile("nul.cu", "a\0b", "sm_80"),
        Err(NvrtcError::Other(_))
    ));
    assert!(n.compile("x.cu", "", "gfx90a").is_err());
}

#[test]
fn the_ptx_cache_serves_the_second_request_without_compiling() {
    let Some(n) = nvrtc_or_fail() else { return };
    let (dir, k, src) = cache_case("ptx-cache", "matmul.cu");

    let cache = PtxCache::new(&dir);
    let first = cache.get_or_compile(&n, k.file, &src, "sm_80").unwrap();
    assert!(!first.from_cache);
    assert_eq!(cache.compiles(), 1);
    assert!(first.path.is_file());

    let second = cache.get_or_compile(&n, k.file, &src, "sm_80").unwrap();
    assert!(second.from_cache, "second request compiled again");
    assert_eq!(cache.compiles(), 1);
    assert_eq!(cache.hits(), 1);
    assert_eq!(second.ptx, first.ptx);

    // Whether `cache` served k's request for (source, arch) without compiling.
    let served_from = |cache: &PtxCache, src: &str, arch: &str| {
        cache
            .get_or_compile(&n, k.file, src, arch)
            .unwrap()
            .from_cache
    };
    // A new process (a new cache over the same directory) compiles nothing either.
    let warm = PtxCache::new(&dir);
    assert!(served_from(&warm, &src, "sm_80"));
    assert_eq!(warm.compiles(), 0);

    // Another arch or a changed source is a different entry.
    assert!(!served_from(&warm, &src, "sm_90"));
    let changed = format!("{src}\n// edited\n");
    assert!(!served_from(&warm, &changed, "sm_80"));
    assert_eq!(warm.compiles(), 2);

    // A compile error is returned and not cached; no temporary files are left behind.
    assert!(
        warm.get_or_compile(&n, "bad.cu", "garbage(", "sm_80")
            .is_err()
    );
    assert!(
        warm.get_or_compile(&n, "bad.cu", "garbage(", "sm_80")
            .is_err()
    );
    assert_eq!(warm.compiles(), 4);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(warm.write_errors(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_cache_dir_still_returns_ptx() {
    let Some(n) = nvrtc_or_fail() else { return };
    let file = temp_dir("ptx-cache-file");
    std::fs::write(&file, "a file, not a directory").unwrap();
    let cache = PtxCache::new(&file);
    let src = kernels::full_source("t.cu", "extern \"C\" __global__ void t() {}\n");
    let r = cache.get_or_compile(&n, "t.cu", &src, "sm_80").unwrap();
    assert!(!r.from_cache);
    assert_eq!(nvrtc::ptx_entries(&r.ptx), ["t"]);
    assert_eq!(cache.write_errors(), 1);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_driver_probe_never_panics_and_reports_no_driver_without_libcuda() {
    let p = probe::probe_driver();
    eprintln!("driver probe: {p}");
    if probe::driver_library_present() {
        // A machine with the NVIDIA driver: whatever it says, it said it without panicking.
        assert_ne!(p.status, DriverStatus::NoDriver);
        for d in &p.devices {
            assert!(d.compute_capability.0 >= 3, "{d:?}");
            assert!(d.total_memory_bytes > 0, "{d:?}");
        }
    } else {
        assert_eq!(p.status, DriverStatus::NoDriver);
        assert!(p.devices.is_empty());
        assert!(!p.has_gpu());
        assert_eq!(p.to_string(), "no NVIDIA driver (libcuda.so not found)");
    }
    // Probing twice is fine (cuInit is idempotent; no context is created).
    assert_eq!(probe::probe_driver().status, p.status);
}

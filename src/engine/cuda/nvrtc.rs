//! Finding NVRTC without panicking, and compiling CUDA C to PTX with it.
//!
//! cudarc (with `dynamic-loading`) `dlopen`s `libnvrtc.so.13` / `.so.12` / ... by name on its
//! first NVRTC call and **panics** when none loads. So [`locate`] runs first and:
//! 1. if `CUDATUTOR_NVRTC_LIB` names a file, loads that exact file (`dlopen` with a full path;
//!    the process keeps the handle, and the `libnvrtc-builtins` beside it is found through the
//!    library's own rpath). A later `dlopen("libnvrtc.so.13")` by cudarc then resolves to the
//!    already-loaded library through its SONAME, so no `LD_LIBRARY_PATH` is needed;
//! 2. otherwise asks cudarc whether its own search (`LD_LIBRARY_PATH`, system paths) succeeds
//!    (`cudarc::nvrtc::sys::is_culib_present`);
//! 3. otherwise tries well-known locations: the repo-local `.venv` made by
//!    `scripts/nvrtc-env.sh` (PyPI wheels `nvidia-cuda-nvrtc` / `-cu12`), the user's and the
//!    system's Python site-packages, `/usr/local/cuda*/lib64`.
//!
//! Only after one of these succeeds does any cudarc NVRTC function run; each cudarc call is
//! also wrapped in `catch_unwind`, so a broken installation is an error, never a panic.

use std::ffi::{CString, c_char, c_int};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Environment variable naming the full path of libnvrtc.so.N (set by scripts/nvrtc-env.sh).
pub(crate) const NVRTC_LIB_ENV: &str = "CUDATUTOR_NVRTC_LIB";

/// GPU architectures the kernels are built for in CI (A100-class and H100/H200-class).
pub const CI_ARCHES: &[&str] = &["sm_80", "sm_90"];

/// Why NVRTC could not be used, or why a compile failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NvrtcError {
    /// No NVRTC library anywhere we looked.
    NotFound { searched: Vec<String> },
    /// `CUDATUTOR_NVRTC_LIB` (or a found file) names a library that does not load.
    LoadFailed { path: PathBuf, reason: String },
    /// NVRTC rejected the source; `log` is NVRTC's program log (file:line: error ...).
    Compile {
        file: String,
        arch: String,
        log: String,
    },
    /// Anything else NVRTC or cudarc reported (including a caught cudarc panic).
    Other(String),
}

impl fmt::Display for NvrtcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NvrtcError::NotFound { searched } => write!(
                f,
                "NVRTC (libnvrtc.so) not found; looked in: {}. Install it with \
                 `source scripts/nvrtc-env.sh` (pip wheel nvidia-cuda-nvrtc) or set \
                 {NVRTC_LIB_ENV} to the library's full path",
                searched.join(", ")
            ),
            NvrtcError::LoadFailed { path, reason } => {
                write!(f, "cannot load NVRTC from {}: {reason}", path.display())
            }
            NvrtcError::Compile { file, arch, log } => {
                write!(f, "NVRTC failed to compile {file} for {arch}:\n{log}")
            }
            NvrtcError::Other(msg) => write!(f, "NVRTC error: {msg}"),
        }
    }
}

impl std::error::Error for NvrtcError {}

/// A usable NVRTC: where it came from and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nvrtc {
    /// The file loaded, when we loaded it by path (None: found by cudarc's own name search).
    pub path: Option<PathBuf>,
    /// How it was found, for `doctor`: "CUDATUTOR_NVRTC_LIB", "loader search path", or the
    /// well-known location.
    pub found_by: String,
    /// (major, minor), e.g. (13, 0).
    pub version: (i32, i32),
}

/// The PTX of one compiled source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    pub ptx: String,
    /// Wall time NVRTC took.
    pub elapsed: Duration,
}

/// The CUBIN (device ELF for one GPU architecture) of one compiled source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledCubin {
    pub cubin: Vec<u8>,
    pub elapsed: Duration,
}

/// Does `bytes` start like an ELF file (what a CUBIN is)?
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

#[cfg(unix)]
mod dl {
    use super::*;
    use std::ffi::c_void;
    const RTLD_NOW: c_int = 2;
    const RTLD_GLOBAL: c_int = 0x100;
    unsafe extern "C" {
        fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
        fn dlerror() -> *mut c_char;
    }

    /// dlopen `path` for the rest of the process (the handle is never closed).
    pub(super) fn open_forever(path: &Path) -> Result<(), String> {
        use std::os::unix::ffi::OsStrExt;
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
        // SAFETY: dlopen/dlerror are thread-safe in glibc; `c` is a valid C string.
        unsafe {
            let h = dlopen(c.as_ptr(), RTLD_NOW | RTLD_GLOBAL);
            if h.is_null() {
                let e = dlerror();
                if e.is_null() {
                    return Err("dlopen failed".into());
                }
                return Err(std::ffi::CStr::from_ptr(e).to_string_lossy().into_owned());
            }
        }
        Ok(())
    }
}

#[cfg(not(unix))]
mod dl {
    use super::*;
    pub(crate) fn open_forever(_path: &Path) -> Result<(), String> {
        Err("loading NVRTC by path is only implemented on Unix".into())
    }
}

/// Library file names to look for in a directory, newest first.
const LIB_NAMES: &[&str] = &["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"];

/// Candidate files in well-known locations, in search order.
pub(crate) fn well_known_candidates() -> Vec<PathBuf> {
    let mut site_packages: Vec<PathBuf> = Vec::new();
    let mut roots: Vec<PathBuf> = Vec::new();
    // The repo-local venv (scripts/nvrtc-env.sh): relative to the working directory and to
    // the crate root this binary was built from (tests run from there).
    roots.push(PathBuf::from(".venv"));
    roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv"));
    if let Some(v) = std::env::var_os("VIRTUAL_ENV") {
        roots.push(PathBuf::from(v));
    }
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(Path::new(&home).join(".local"));
    }
    roots.push(PathBuf::from("/usr/local"));
    roots.push(PathBuf::from("/usr"));
    for root in &roots {
        for lib in ["lib", "lib64"] {
            let Ok(dir) = std::fs::read_dir(root.join(lib)) else {
                continue;
            };
            let mut pys: Vec<PathBuf> = dir
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
                .map(|e| e.path())
                .collect();
            pys.sort();
            pys.reverse();
            for py in pys {
                for sp in ["site-packages", "dist-packages"] {
                    site_packages.push(py.join(sp));
                }
            }
        }
    }
    let mut out = Vec::new();
    for sp in site_packages {
        // nvidia-cuda-nvrtc 13.x: nvidia/cu13/lib; -cu12 wheels: nvidia/cuda_nvrtc/lib.
        for sub in ["nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"] {
            for name in LIB_NAMES {
                out.push(sp.join(sub).join(name));
            }
        }
    }
    let mut cuda_dirs = vec![PathBuf::from("/usr/local/cuda/lib64")];
    if let Ok(dir) = std::fs::read_dir("/usr/local") {
        let mut v: Vec<PathBuf> = dir
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("cuda-"))
            .map(|e| e.path().join("lib64"))
            .collect();
        v.sort();
        v.reverse();
        cuda_dirs.extend(v);
    }
    for d in cuda_dirs {
        for name in LIB_NAMES {
            out.push(d.join(name));
        }
    }
    out
}

fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, NvrtcError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into());
        NvrtcError::Other(format!("{what}: {msg}"))
    })
}

fn cudarc_sees_nvrtc() -> bool {
    // SAFETY: only tries to dlopen candidate names; no symbol is called.
    guarded("is_culib_present", || unsafe {
        cudarc::nvrtc::sys::is_culib_present()
    })
    .unwrap_or(false)
}

fn nvrtc_version() -> Result<(i32, i32), NvrtcError> {
    guarded("nvrtcVersion", || {
        let (mut major, mut minor) = (0 as c_int, 0 as c_int);
        // SAFETY: called only after the library is known to load; both pointers are valid.
        let r = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
        (r, major, minor)
    })
    .and_then(|(r, major, minor)| {
        if r == cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS {
            Ok((major, minor))
        } else {
            Err(NvrtcError::Other(format!("nvrtcVersion returned {r:?}")))
        }
    })
}

/// The `libnvrtc-builtins.so.*` files next to `lib`, newest version first.
pub(crate) fn builtins_beside(lib: &Path) -> Vec<PathBuf> {
    let Some(dir) = lib.parent() else {
        return Vec::new();
    };
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("libnvrtc-builtins.so."))
        })
        .collect();
    v.sort();
    v.reverse();
    v
}

/// Loads NVRTC from a full path. libnvrtc loads `libnvrtc-builtins.so.<M>.<m>` by name when it
/// compiles; PyTorch's own NVRTC wheel (13.0) has no `$ORIGIN` rpath, so that name is not
/// found next to it ("failed to open libnvrtc-builtins.so.13.0"). Loading the builtins beside
/// it first, with RTLD_GLOBAL, makes the later load by name find the library already loaded
/// (by its SONAME). A builtins file that does not load is not an error here: NVRTC may still
/// find its own through an rpath.
fn open_nvrtc_by_path(path: &Path) -> Result<(), String> {
    for b in builtins_beside(path) {
        if dl::open_forever(&b).is_ok() {
            break;
        }
    }
    dl::open_forever(path)
}

fn locate_uncached() -> Result<Nvrtc, NvrtcError> {
    let mut searched = Vec::new();
    // 1. The explicit path.
    if let Some(p) = std::env::var_os(NVRTC_LIB_ENV).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(p);
        open_nvrtc_by_path(&path).map_err(|reason| NvrtcError::LoadFailed {
            path: path.clone(),
            reason: format!("{reason} (from {NVRTC_LIB_ENV})"),
        })?;
        if !cudarc_sees_nvrtc() {
            return Err(NvrtcError::LoadFailed {
                path,
                reason: "loaded, but its SONAME is not one cudarc looks for".into(),
            });
        }
        return Ok(Nvrtc {
            path: Some(path),
            found_by: NVRTC_LIB_ENV.into(),
            version: nvrtc_version()?,
        });
    }
    searched.push(format!("${NVRTC_LIB_ENV} (unset)"));
    // 2. cudarc's own search: LD_LIBRARY_PATH, ld.so.cache, system directories.
    searched.push("the loader search path (LD_LIBRARY_PATH, system libraries)".into());
    if cudarc_sees_nvrtc() {
        return Ok(Nvrtc {
            path: None,
            found_by: "loader search path".into(),
            version: nvrtc_version()?,
        });
    }
    // 3. Well-known locations.
    let mut last_err = None;
    for cand in well_known_candidates() {
        if !cand.is_file() {
            continue;
        }
        match open_nvrtc_by_path(&cand) {
            Ok(()) if cudarc_sees_nvrtc() => {
                return Ok(Nvrtc {
                    found_by: format!("well-known location {}", cand.display()),
                    path: Some(cand),
                    version: nvrtc_version()?,
                });
            }
            Ok(()) => {}
            Err(reason) => {
                last_err = Some(NvrtcError::LoadFailed { path: cand, reason });
            }
        }
    }
    if let Some(e) = last_err {
        return Err(e);
    }
    searched.push(".venv and Python site-packages (nvidia/cu13/lib, nvidia/cuda_nvrtc/lib)".into());
    searched.push("/usr/local/cuda*/lib64".into());
    Err(NvrtcError::NotFound { searched })
}

/// Finds and loads NVRTC once per process (later calls return the same answer).
pub fn locate() -> Result<Nvrtc, NvrtcError> {
    static FOUND: OnceLock<Result<Nvrtc, NvrtcError>> = OnceLock::new();
    FOUND.get_or_init(locate_uncached).clone()
}

/// NVRTC options besides the architecture, for PTX and CUBIN alike (part of the kernel
/// cache's key). `--fmad=false`: no multiply-add is contracted into an FMA that the kernel did
/// not write, as the emulated device is compiled (`-ffp-contract=off`), so a kernel gives the
/// same bits on a GPU and on the emulated device (measured on an H200: with contraction the
/// tiled sgemm differed from the emulated device in the last bits).
pub(crate) const COMPILE_OPTIONS: &[&str] = &["--std=c++17", "--fmad=false"];

impl Nvrtc {
    /// `"13.0"`.
    pub fn version_string(&self) -> String {
        format!("{}.{}", self.version.0, self.version.1)
    }

    /// Compiles `source` (the full text, see
    /// [`KernelFile::full_source`](super::kernels::KernelFile::full_source)) for `arch`
    /// (e.g. `"sm_80"`); `file` is the program name NVRTC puts in messages and `__FILE__`.
    /// A rejected source returns [`NvrtcError::Compile`] with NVRTC's log.
    pub fn compile(&self, file: &str, source: &str, arch: &str) -> Result<Compiled, NvrtcError> {
        if source.contains('\0') || file.contains('\0') {
            return Err(NvrtcError::Other(format!(
                "{file}: source contains a NUL byte"
            )));
        }
        if !arch.starts_with("sm_") && !arch.starts_with("compute_") {
            return Err(NvrtcError::Other(format!(
                "unknown GPU architecture {arch:?} (expected e.g. sm_80)"
            )));
        }
        let opts = cudarc::nvrtc::CompileOptions {
            // `arch` is a &'static str in cudarc; pass it as a plain option instead.
            options: std::iter::once(format!("--gpu-architecture={arch}"))
                .chain(COMPILE_OPTIONS.iter().map(|o| o.to_string()))
                .collect(),
            name: Some(file.to_string()),
            ..Default::default()
        };
        let start = Instant::now();
        let result = guarded("compile_ptx_with_opts", || {
            cudarc::nvrtc::compile_ptx_with_opts(source, opts)
        })?;
        let elapsed = start.elapsed();
        match result {
            Ok(ptx) => Ok(Compiled {
                ptx: ptx.to_src(),
                elapsed,
            }),
            Err(cudarc::nvrtc::CompileError::CompileError { log, .. }) => {
                Err(NvrtcError::Compile {
                    file: file.to_string(),
                    arch: arch.to_string(),
                    log: log.to_string_lossy().trim_end().to_string(),
                })
            }
            Err(e) => Err(NvrtcError::Other(e.to_string())),
        }
    }
}

impl Nvrtc {
    /// Compiles `source` to a CUBIN for `arch` (a real architecture, `sm_XY`: a CUBIN is
    /// machine code for one GPU generation). Loading CUBIN instead of PTX means the driver does
    /// not JIT-compile PTX, so an NVRTC newer than the driver works: NVRTC 13.5 writes PTX ISA
    /// 9.5, which a CUDA 13.0 driver (580) rejects, but its sm_90 CUBIN loads there.
    pub fn compile_cubin(
        &self,
        file: &str,
        source: &str,
        arch: &str,
    ) -> Result<CompiledCubin, NvrtcError> {
        if source.contains('\0') || file.contains('\0') {
            return Err(NvrtcError::Other(format!(
                "{file}: source contains a NUL byte"
            )));
        }
        if !arch.starts_with("sm_")
            || arch.len() < 5
            || !arch[3..].chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(NvrtcError::Other(format!(
                "a CUBIN needs a real GPU architecture such as sm_90, not {arch:?}"
            )));
        }
        let start = Instant::now();
        let file_c = CString::new(file).map_err(|e| NvrtcError::Other(e.to_string()))?;
        let src_c = CString::new(source).map_err(|e| NvrtcError::Other(e.to_string()))?;
        let options: Vec<String> = std::iter::once(format!("--gpu-architecture={arch}"))
            .chain(COMPILE_OPTIONS.iter().map(|o| o.to_string()))
            .collect();
        let options_c: Vec<CString> = options
            .iter()
            .map(|o| CString::new(o.as_str()).map_err(|e| NvrtcError::Other(e.to_string())))
            .collect::<Result<_, _>>()?;
        let result = guarded("nvrtc CUBIN compile", || {
            // SAFETY: every pointer passed is a valid NUL-terminated string or a buffer of the
            // size NVRTC reported; the program is destroyed on every path.
            unsafe { cubin_raw(&file_c, &src_c, &options_c) }
        })?;
        let elapsed = start.elapsed();
        match result {
            Ok(cubin) => Ok(CompiledCubin { cubin, elapsed }),
            Err(RawFailure::Compile(log)) => Err(NvrtcError::Compile {
                file: file.to_string(),
                arch: arch.to_string(),
                log,
            }),
            Err(RawFailure::Call(what, code)) => {
                Err(NvrtcError::Other(format!("{what} returned {code:?}")))
            }
        }
    }
}

enum RawFailure {
    Compile(String),
    Call(&'static str, cudarc::nvrtc::sys::nvrtcResult),
}

/// nvrtcCreateProgram -> nvrtcCompileProgram -> nvrtcGetCUBIN, with the program log on a
/// compile error.
///
/// # Safety
/// NVRTC must be loaded (see [`locate`]).
unsafe fn cubin_raw(
    file: &CString,
    src: &CString,
    options: &[CString],
) -> Result<Vec<u8>, RawFailure> {
    use cudarc::nvrtc::sys::{self as nv, nvrtcResult::NVRTC_SUCCESS};
    let mut prog: nv::nvrtcProgram = std::ptr::null_mut();
    // SAFETY: arguments as NVRTC documents them, in this whole block; `prog` is destroyed
    // below.
    unsafe {
        let r = nv::nvrtcCreateProgram(
            &mut prog,
            src.as_ptr(),
            file.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        );
        if r != NVRTC_SUCCESS {
            return Err(RawFailure::Call("nvrtcCreateProgram", r));
        }
        let ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
        let compiled = nv::nvrtcCompileProgram(prog, ptrs.len() as c_int, ptrs.as_ptr());
        let out = if compiled != NVRTC_SUCCESS {
            let mut size = 0usize;
            let mut log = String::new();
            if nv::nvrtcGetProgramLogSize(prog, &mut size) == NVRTC_SUCCESS && size > 0 {
                let mut buf = vec![0u8; size];
                if nv::nvrtcGetProgramLog(prog, buf.as_mut_ptr().cast()) == NVRTC_SUCCESS {
                    while buf.last() == Some(&0) {
                        buf.pop();
                    }
                    log = String::from_utf8_lossy(&buf).trim_end().to_string();
                }
            }
            Err(RawFailure::Compile(log))
        } else {
            let mut size = 0usize;
            let r = nv::nvrtcGetCUBINSize(prog, &mut size);
            if r != NVRTC_SUCCESS {
                Err(RawFailure::Call("nvrtcGetCUBINSize", r))
            } else {
                let mut buf = vec![0u8; size];
                let r = nv::nvrtcGetCUBIN(prog, buf.as_mut_ptr().cast());
                if r != NVRTC_SUCCESS {
                    Err(RawFailure::Call("nvrtcGetCUBIN", r))
                } else {
                    Ok(buf)
                }
            }
        };
        nv::nvrtcDestroyProgram(&mut prog);
        out
    }
}

/// The `.entry` (kernel) names a PTX module defines, in order.
pub fn ptx_entries(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".visible .entry ")?;
            let name = rest.split(['(', ' ']).next()?;
            Some(name.to_string())
        })
        .collect()
}

/// The byte-string constants of a PTX module (`.global .align 1 .b8 $str[..] = {..}`),
/// decoded: device-side assert messages, file and function names.
pub fn ptx_string_constants(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.trim_start().starts_with(".global .align 1 .b8 "))
        .filter_map(|l| {
            let body = l.split_once("= {")?.1.split_once('}')?.0;
            let bytes: Option<Vec<u8>> = body
                .split(',')
                .map(|b| b.trim().parse::<u8>().ok())
                .collect();
            let mut bytes = bytes?;
            while bytes.last() == Some(&0) {
                bytes.pop();
            }
            Some(String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_strings() {
        let ptx = ".visible .entry add_f32(\n\t.param .u64 x\n)\n.visible .entry sgemm(\n\
                   .global .align 1 .b8 $str[4] = {97, 62, 48, 0};\n";
        assert_eq!(ptx_entries(ptx), ["add_f32", "sgemm"]);
        assert_eq!(ptx_string_constants(ptx), ["a>0"]);
    }

    #[test]
    fn not_found_message_names_the_script() {
        let e = NvrtcError::NotFound {
            searched: vec!["x".into()],
        };
        assert!(e.to_string().contains("source scripts/nvrtc-env.sh"));
    }

    #[test]
    fn candidates_include_the_repo_venv_wheel_layout() {
        assert!(well_known_candidates().iter().all(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("libnvrtc")
        }));
    }
}

//! Build steps:
//! 1. embed every lesson file under lessons/<lang>/ into the binary, so `cudatutor` works from
//!    any directory without shipping data files;
//! 2. compile kernels/*.cu for the CPU (the emulated device, `--backend emulated`): each file
//!    after the shim kernels/emu/shim.h, with its entry table, plus the launcher
//!    kernels/emu/emu.cpp, into a static library linked into the binary. Done here, not at run
//!    time, so the emulated device works on a learner's machine without a C++ compiler and costs
//!    nothing at start-up; see docs/cuda-backend.md. Without a working C++ compiler the build
//!    still succeeds, without the emulated device (`cfg(ct_emulated)` unset), and says so.
//! 3. index PyTorch's signature tables (src/torch/signatures/*.sig) by callable name, so a
//!    script's first torch call does not build the index ([`index_signatures`]);
//! 4. find the top-level statements of every Python prelude ([`scan_preludes`]);
//! 5. link the `cudatutor` executable at a fixed address on Linux ([`link_executable`]).

use std::{env, fs, path::Path, path::PathBuf};

#[path = "src/engine/cuda/emulated/source.rs"]
// The crate's `pub` items are private to this build script.
#[allow(dead_code, unreachable_pub)]
mod emu_source;
#[path = "src/engine/cuda/kernels.rs"]
#[allow(dead_code, unreachable_pub)]
mod kernels;
#[path = "src/torch/prelude_files.rs"]
#[allow(dead_code)]
mod prelude_files;
#[path = "src/torch/argparse/blocks.rs"]
#[allow(dead_code)]
mod signature_blocks;
#[path = "src/script/interp/top_level.rs"]
#[allow(dead_code, unreachable_pub)]
mod top_level;

fn main() {
    embed_lessons();
    build_emulated_device();
    index_signatures();
    scan_preludes();
    link_executable();
}

/// Writes `prelude_statements.rs` for src/script/interp/prelude_table.rs: the length,
/// `text_hash` and top-level statements of every src/**/*.py and of each concatenation of
/// src/torch/prelude_files.rs, so an import does not scan its prelude.
fn scan_preludes() {
    println!("cargo:rerun-if-changed=src/script/interp/top_level.rs");
    println!("cargo:rerun-if-changed=src/torch/prelude_files.rs");
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let src = Path::new(&manifest).join("src");
    let mut files = Vec::new();
    python_files(&src, &mut files);
    files.sort();
    let mut texts: Vec<String> = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        texts.push(read_source(path));
    }
    for parts in prelude_files::COMPOSITE_PRELUDES {
        let mut text = String::new();
        for part in *parts {
            let path = src.join("torch").join(part);
            text.push_str(&read_source(&path));
        }
        texts.push(text);
    }
    let mut code =
        String::from("pub(super) static PRELUDE_STATEMENTS: &[(usize, u64, &[BuiltStmt])] = &[\n");
    for text in &texts {
        let stmts: Vec<String> = top_level::top_level_statements(text)
            .iter()
            .map(|s| format!("({}, {}, {}, {})", s.start, s.end, s.first_line, s.newlines))
            .collect();
        code.push_str(&format!(
            "    ({}, {:#x}, &[{}]),\n",
            text.len(),
            top_level::text_hash(text),
            stmts.join(", ")
        ));
    }
    code.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("prelude_statements.rs");
    fs::write(out, code).unwrap();
}

/// A source file the build turns into a table: a build without it cannot go on.
fn read_source(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Every `.py` file under `dir`, recursively (symlinks not followed).
fn python_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            python_files(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "py") {
            out.push(path);
        }
    }
}

/// Writes `signature_blocks.rs` for src/torch/argparse/table.rs: per namespace, its callables
/// sorted by name with their overload lines (`signature_blocks::index`), a parser slot for
/// each, and `table(ns)` giving both.
fn index_signatures() {
    println!("cargo:rerun-if-changed=src/torch/argparse/blocks.rs");
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    // (Namespace variant, table file stem)
    let tables = [
        ("Torch", "torch"),
        ("Tensor", "tensor"),
        ("Nn", "nn"),
        ("Special", "special"),
        ("Linalg", "linalg"),
        ("Fft", "fft"),
    ];
    let mut code = String::new();
    let mut arms = String::new();
    for (variant, stem) in tables {
        let path = Path::new(&manifest)
            .join("src/torch/signatures")
            .join(format!("{stem}.sig"));
        println!("cargo:rerun-if-changed={}", path.display());
        let source = read_source(&path);
        let index = signature_blocks::index(&source);
        let upper = stem.to_uppercase();
        let n = index.len();
        code.push_str(&format!(
            "static {upper}_BLOCKS: [(&str, &[&str]); {n}] = [\n"
        ));
        for (name, lines) in &index {
            code.push_str(&format!("    ({name:?}, &{lines:?}),\n"));
        }
        code.push_str("];\n");
        code.push_str(&format!(
            "static {upper}_PARSERS: [OnceLock<Option<Parser>>; {n}] = [const {{ OnceLock::new() }}; {n}];\n"
        ));
        arms.push_str(&format!(
            "        Namespace::{variant} => (&{upper}_BLOCKS, &{upper}_PARSERS),\n"
        ));
    }
    code.push_str(&format!(
        "fn table(ns: Namespace) -> Table {{\n    match ns {{\n{arms}    }}\n}}\n"
    ));
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("signature_blocks.rs");
    fs::write(out, code).unwrap();
}

/// On Linux the executable is linked as a non-PIE one: every `cudatutor run` is a fresh
/// process, and as a PIE its ~30,000 relative relocations made the loader write to every
/// page of `.data.rel.ro` (550 KB), a copy-on-write page fault each: 463 page faults for an
/// empty script, 344 without them. Measured on the 2-vCPU EPYC VM, median of 10 runs:
/// `cudatutor --version` 4.3 -> 2.9 ms, an empty script 6.8 -> 5.5 ms, every lesson solution
/// about 1.5 ms less. What is lost is the executable's own address randomisation; scripts run
/// on the interpreter, not as native code, and the libraries it loads stay randomised.
/// (The library and test binaries are not affected: `-bins` only.)
fn link_executable() {
    let linux = env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let gnu_like = env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|e| e == "gnu" || e == "musl");
    if linux && gnu_like {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

fn embed_lessons() {
    println!("cargo:rerun-if-changed=lessons");
    // Read at run time, not with env!(): a build script compiled in one checkout and reused
    // from a copied target folder must embed this checkout's lessons, not the other one's.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    let mut entries = Vec::new();
    for lang in ["en", "zh"] {
        let dir = root.join("lessons").join(lang);
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(read) = fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        files.sort();
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = format!(
                "lessons/{lang}/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            entries.push(format!(
                "    ({lang:?}, {name:?}, include_str!({:?})),\n",
                path.display().to_string()
            ));
        }
    }
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("builtin_lessons.rs");
    let code = format!(
        "/// (lang, file name, contents) of every built-in lesson.\npub(crate) static BUILTIN_LESSONS: &[(&str, &str, &str)] = &[\n{}];\n",
        entries.concat()
    );
    fs::write(out, code).unwrap();
}

fn build_emulated_device() {
    println!("cargo::rustc-check-cfg=cfg(ct_emulated)");
    println!("cargo:rerun-if-changed=kernels");
    println!("cargo:rerun-if-changed=src/engine/cuda/kernels.rs");
    println!("cargo:rerun-if-changed=src/engine/cuda/emulated/source.rs");
    println!("cargo:rerun-if-env-changed=CUDATUTOR_NO_EMULATED");
    if env::var_os("CUDATUTOR_NO_EMULATED").is_some_and(|v| v == "1") {
        println!("cargo:warning=CUDATUTOR_NO_EMULATED=1: building without the emulated device");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("emulated");
    fs::create_dir_all(&out).unwrap();
    let mut sources = vec![root.join("kernels/emu/emu.cpp")];
    for k in kernels::KERNEL_FILES {
        let tu =
            emu_source::host_translation_unit(k.file, k.source, &k.full_source(), &k.entries());
        let path = out.join(format!("{}.cpp", k.file.trim_end_matches(".cu")));
        write_if_changed(&path, &tu);
        sources.push(path);
    }
    let files: Vec<&str> = kernels::KERNEL_FILES.iter().map(|k| k.file).collect();
    let list = out.join("modules.cpp");
    write_if_changed(&list, &emu_source::module_list(&files));
    sources.push(list);

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .include(root.join("kernels/emu"))
        // The kernels run the emulated device's every op: always optimised, also in debug
        // builds, and without debug info (the binary stays small).
        .opt_level(2)
        .debug(false)
        .warnings(false)
        // Floating point as the GPU does it by default: no fast-math, and no fused
        // multiply-add contraction the kernels did not write.
        .flag_if_supported("-ffp-contract=off")
        .flag_if_supported("-fno-math-errno")
        // The C++ runtime is linked statically below, so the binary runs on machines with an
        // older libstdc++ (the GPU machines get binaries built here).
        .cpp_link_stdlib(None)
        .files(&sources);
    match build.try_compile("cudatutor_emulated") {
        Ok(()) => {
            link_cxx_runtime(&build);
            println!("cargo:rustc-cfg=ct_emulated");
        }
        Err(e) => {
            println!(
                "cargo:warning=the emulated device is not built (no working C++ compiler?): {e}"
            );
        }
    }
}

/// Links libstdc++ statically when the compiler has the archive, else dynamically. Apple's
/// toolchains ship libc++ only (no libstdc++ since Xcode 10), always as a system dylib.
fn link_cxx_runtime(build: &cc::Build) {
    if env::var("CARGO_CFG_TARGET_VENDOR").is_ok_and(|v| v == "apple") {
        println!("cargo:rustc-link-lib=dylib=c++");
        return;
    }
    let compiler = build.get_compiler();
    let archive = std::process::Command::new(compiler.path())
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|p| p.is_absolute() && p.is_file());
    match archive.as_ref().and_then(|p| p.parent()) {
        Some(dir) => {
            println!("cargo:rustc-link-search=native={}", dir.display());
            println!("cargo:rustc-link-lib=static=stdc++");
        }
        None => println!("cargo:rustc-link-lib=dylib=stdc++"),
    }
}

fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap();
    }
}

//! The C++ text the emulated device is built from: for each kernel file, the shim
//! (kernels/emu/shim.h), the exact text NVRTC compiles (`KernelFile::full_source`), and a
//! table of the file's entry points. Used by build.rs (which compiles it into the binary with
//! the `cc` crate) and by the sanitizer test (which compiles it again with `-fsanitize=thread`),
//! so both build the same thing. (build.rs includes this file by path, hence no `use` of the
//! kernels module: callers pass the file's texts and entries.)

/// The symbol of a file's module table: `ct_emu_module_loss` for loss.cu.
pub(crate) fn module_symbol(file: &str) -> String {
    let stem: String = file
        .trim_end_matches(".cu")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("ct_emu_module_{stem}")
}

/// Does a kernel file synchronise a block (`__syncthreads`)? Only those need threads that run
/// side by side; see kernels/emu/emu.cpp.
pub(crate) fn uses_barrier(source: &str) -> bool {
    source.contains("__syncthreads")
}

/// The C++ translation unit for one kernel file: the shim, `full_source` (common.cu, the
/// `#line` directive and the file, as NVRTC gets it), then the table of `entries`.
/// `file_source` is the file's own text (it decides whether the file uses barriers).
pub fn host_translation_unit(
    file: &str,
    file_source: &str,
    full_source: &str,
    entries: &[String],
) -> String {
    let mut s = String::from("#include \"shim.h\"\n");
    s.push_str(full_source);
    s.push_str("\n\n// ---- entry table (generated from src/engine/cuda/kernels.rs) ----\n");
    s.push_str("static const ct_emu_entry ct_emu_entries[] = {\n");
    for e in entries {
        s.push_str(&format!("    CT_EMU_ENTRY({e}),\n"));
    }
    s.push_str("};\n");
    s.push_str(&format!(
        "extern \"C\" const ct_emu_module {} = {{\"{}\", ct_emu_entries, {}, {}}};\n",
        module_symbol(file),
        file,
        entries.len(),
        i32::from(uses_barrier(file_source))
    ));
    s
}

/// The C++ file that lists every module (kernel `files`, in order); build.rs, which includes this
/// file, is its one caller.
#[allow(dead_code)]
pub(crate) fn module_list(files: &[&str]) -> String {
    let mut s = String::from("#include \"shim.h\"\n");
    for f in files {
        s.push_str(&format!(
            "extern \"C\" const ct_emu_module {};\n",
            module_symbol(f)
        ));
    }
    s.push_str("extern \"C\" const ct_emu_module* const ct_emu_modules[] = {\n");
    for f in files {
        s.push_str(&format!("    &{},\n", module_symbol(f)));
    }
    s.push_str("};\n");
    s.push_str(&format!(
        "extern \"C\" const unsigned long ct_emu_module_count = {};\n",
        files.len()
    ));
    s
}

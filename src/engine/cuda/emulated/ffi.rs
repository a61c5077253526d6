//! The C ABI of the emulated device's launcher (kernels/emu/emu.cpp) and the module tables
//! build.rs generates (one per kernel file). Only compiled when build.rs built them
//! (`cfg(ct_emulated)`).

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};

/// `ct_emu_entry` in shim.h.
#[repr(C)]
pub(super) struct RawEntry {
    pub name: *const c_char,
    pub func: *mut c_void,
    pub invoke: unsafe extern "C" fn(*mut c_void, *mut *mut c_void),
    pub n_params: usize,
    pub param_sizes: *const usize,
}

/// `ct_emu_module` in shim.h.
#[repr(C)]
pub(super) struct RawModule {
    pub file: *const c_char,
    pub entries: *const RawEntry,
    pub n_entries: usize,
    pub uses_barrier: c_int,
}

/// Launch outcomes of `ct_emu_launch` (the enum in emu.cpp; 4, an internal error, is any
/// other value here).
pub(super) const CT_EMU_OK: c_int = 0;
pub(super) const CT_EMU_ASSERT: c_int = 1;
pub(super) const CT_EMU_INVALID_CONFIG: c_int = 2;
pub(super) const CT_EMU_INVALID_ARGS: c_int = 3;

pub(super) type LogFn = unsafe extern "C" fn(ctx: *mut c_void, line: *const c_char, len: usize);

unsafe extern "C" {
    static ct_emu_modules: [*const RawModule; 0];
    static ct_emu_module_count: std::ffi::c_ulong;

    pub(super) fn ct_emu_launch(
        entry: *const RawEntry,
        uses_barrier: c_int,
        gx: c_uint,
        gy: c_uint,
        gz: c_uint,
        bx: c_uint,
        by: c_uint,
        bz: c_uint,
        shared_bytes: usize,
        args: *mut *mut c_void,
        n_args: usize,
        log: Option<LogFn>,
        log_ctx: *mut c_void,
        err: *mut c_char,
        err_len: usize,
    ) -> c_int;
}

/// One entry point, safe to hold (the tables are static data of the binary).
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub raw: &'static RawEntry,
    pub uses_barrier: bool,
}

// SAFETY: the tables are immutable static data initialised before main.
unsafe impl Send for Entry {}
// SAFETY: as for Send: nothing ever writes to them.
unsafe impl Sync for Entry {}

impl Entry {
    pub(super) fn name(&self) -> &'static str {
        // SAFETY: names are string literals of the generated tables.
        unsafe { CStr::from_ptr(self.raw.name) }
            .to_str()
            .unwrap_or("?")
    }

    pub(super) fn param_sizes(&self) -> &'static [usize] {
        // SAFETY: `param_sizes` has `n_params` elements (plus a terminator).
        unsafe { std::slice::from_raw_parts(self.raw.param_sizes, self.raw.n_params) }
    }
}

/// Every (file, entries) the binary holds.
pub(super) fn modules() -> Vec<(&'static str, Vec<Entry>)> {
    let mut out = Vec::new();
    // SAFETY: ct_emu_modules has ct_emu_module_count valid pointers to static tables.
    unsafe {
        let count = ct_emu_module_count as usize;
        let base = std::ptr::addr_of!(ct_emu_modules) as *const *const RawModule;
        for i in 0..count {
            let m: &'static RawModule = &**base.add(i);
            let file = CStr::from_ptr(m.file).to_str().unwrap_or("?");
            let entries = std::slice::from_raw_parts(m.entries, m.n_entries)
                .iter()
                .map(|raw| Entry {
                    raw,
                    uses_barrier: m.uses_barrier != 0,
                })
                .collect();
            out.push((file, entries));
        }
    }
    out
}

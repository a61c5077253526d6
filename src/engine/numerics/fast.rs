//! Runs hot loops compiled for AVX-512 or AVX2, with FMA, when the CPU has them.
//!
//! The crate is built for baseline x86-64, where `f32::mul_add` is a call into libm and vectors
//! are 4 lanes wide. The kernels here are written as plain loops over slices, so they stay
//! bit-exact by construction; `avx2_fma!` puts a kernel body in a function compiled with
//! `avx2,fma`, where the `#[inline(always)]` math inlines, `mul_add` becomes one `vfmadd` and
//! LLVM vectorises the loops, and calls it when the CPU supports those features. The results
//! are identical either way: an FMA rounds once in hardware and in libm alike.

use std::sync::OnceLock;

/// Whether this CPU runs AVX2 and FMA instructions (checked once).
pub(crate) fn has_avx2_fma() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// Whether this CPU runs the AVX-512 subsets LLVM uses for 16-lane float loops (F, VL, DQ, BW)
/// besides AVX2 and FMA (checked once).
pub(crate) fn has_avx512() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            has_avx2_fma()
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512dq")
                && std::arch::is_x86_feature_detected!("avx512bw")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// `avx2_fma!(fn_name(arg: Type, ...) -> Ret { body })` defines `fn_name` running `body`
/// compiled for AVX2+FMA when available, and as plain code otherwise.
macro_rules! avx2_fma {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($a:ident : $t:ty),* $(,)?) $(-> $r:ty)? $body:block) => {
        $(#[$m])*
        $vis fn $name($($a: $t),*) $(-> $r)? {
            #[inline(always)]
            fn body($($a: $t),*) $(-> $r)? $body
            #[cfg(target_arch = "x86_64")]
            {
                // The same body with 512-bit vectors where the CPU has them: the lanes a kernel
                // keeps are arrays in its code, not registers, so only the speed changes (a
                // Sapphire Rapids core runs softmax's exp about 1.6x faster this way).
                #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
                unsafe fn accelerated512($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                if $crate::engine::numerics::fast::has_avx512() {
                    // SAFETY: the CPU supports every feature the function enables (checked
                    // just above).
                    return unsafe { accelerated512($($a),*) };
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn accelerated($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                if $crate::engine::numerics::fast::has_avx2_fma() {
                    // SAFETY: the CPU supports avx2 and fma (checked just above), all that
                    // the target_feature function requires.
                    return unsafe { accelerated($($a),*) };
                }
            }
            body($($a),*)
        }
    };
}
pub(crate) use avx2_fma;

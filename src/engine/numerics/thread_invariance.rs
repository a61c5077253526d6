//! The kernels that split over the intra-op threads give the same bits at every thread count:
//! softmax / log_softmax (both dtypes) and their backward, the float32 SLEEF/glibc unary and
//! binary kernels and the float64 ones (whose vector/scalar split must not move), the host's generic elementwise
//! maps, and max/min/argmax/argmin along a dimension. Sizes are above the grain, lengths odd,
//! and views strided where the kernel takes views.

use crate::engine::dtype::{DType, Scalar};
use crate::engine::host::HostStorage;
use crate::engine::layout::Layout;
use crate::engine::numerics::View;
use crate::engine::numerics::binary::{Binary, binary_strided_f32, binary_strided_f32_serial};
use crate::engine::numerics::softmax;
use crate::engine::numerics::unary::{Unary, unary_strided_f32, unary_strided_f32_serial};
use crate::engine::numerics::unary_f64::{UnaryF64, unary_strided_f64, unary_strided_f64_serial};
use crate::engine::op::{Arg, BinaryOp, UnaryOp};
use crate::engine::parallel::{GRAIN_SIZE, TEST_THREADS_LOCK, set_num_threads};
use crate::engine::test_sequence::Lcg;

/// Thread counts every case runs at (1 is the one-thread order the recordings hold).
const THREADS: [usize; 3] = [1, 2, 3];

/// Seeded values in about [-8, 8), with NaNs, infinities and signed zeros mixed in when
/// `specials`.
fn values(n: usize, seed: u32, specials: bool) -> Vec<f32> {
    let mut lcg = Lcg::new(seed);
    (0..n)
        .map(|_| {
            let s = lcg.next_u32();
            match s % 97 {
                0 if specials => f32::NAN,
                1 if specials => f32::INFINITY,
                2 if specials => -0.0,
                3 if specials => 0.0,
                _ => (s >> 8) as f32 / (1 << 20) as f32 - 8.0,
            }
        })
        .collect()
}

/// `run()` at each thread count, asserting the bit patterns equal the one-thread ones.
fn same_bits_at_every_count<B: PartialEq + std::fmt::Debug>(what: &str, run: impl Fn() -> B) {
    let _g = TEST_THREADS_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    set_num_threads(1);
    let want = run();
    for threads in THREADS {
        set_num_threads(threads);
        let got = run();
        assert!(got == want, "{what}: {threads} threads differ from one");
    }
    set_num_threads(1);
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn bits64(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A strided unary kernel: `(op, input, its view, output, its view)`.
type UnaryKernel<'k, O, T> = dyn Fn(O, &[T], View<'_>, &mut [T], View<'_>) + 'k;

/// The views a unary kernel is checked on: a whole contiguous row (`flat`, as long as the
/// input) and a transposed view of its first `t_len` elements written to `t_out`.
struct UnaryViews<'a> {
    flat: View<'a>,
    transposed: View<'a>,
    t_out: View<'a>,
    t_len: usize,
}

impl UnaryViews<'_> {
    /// `split` (the kernel that splits over the threads) of `op` on both views gives the bits
    /// of `serial` (the one-thread kernel) at every thread count.
    fn check<T: Copy + Default, O: Copy + std::fmt::Debug, B: PartialEq + std::fmt::Debug>(
        &self,
        op: O,
        x: &[T],
        serial: impl Fn(O, &[T], View<'_>, &mut [T], View<'_>),
        split: impl Fn(O, &[T], View<'_>, &mut [T], View<'_>),
        bits: impl Fn(&[T]) -> B,
    ) {
        let run = |kernel: &UnaryKernel<'_, O, T>| {
            let mut out = vec![T::default(); x.len()];
            kernel(op, x, self.flat, &mut out, self.flat);
            let mut out_t = vec![T::default(); self.t_len];
            kernel(op, x, self.transposed, &mut out_t, self.t_out);
            (bits(&out), bits(&out_t))
        };
        let (want, want_t) = run(&serial);
        same_bits_at_every_count(&format!("{op:?}"), || {
            let (out, out_t) = run(&split);
            assert_eq!(out, want, "{op:?} contiguous");
            assert_eq!(out_t, want_t, "{op:?} transposed");
            (out, out_t)
        });
    }
}

/// A float or bool result's bit patterns (a NaN equals itself here, unlike in `==`).
fn storage_bits(h: &HostStorage) -> Vec<u64> {
    match h {
        HostStorage::F32(v) => v.iter().map(|x| x.to_bits() as u64).collect(),
        HostStorage::F64(v) => bits64(v),
        HostStorage::Bool(v) => v.iter().map(|&b| b as u64).collect(),
        other => panic!("unexpected result dtype {:?}", other.dtype()),
    }
}

#[test]
fn softmax_and_its_backward_do_not_depend_on_the_thread_count() {
    // (outer, dim, inner): last dim with odd rows, another dim with an inner tail
    for (outer, dim, inner) in [(301, 257, 1), (37, 33, 41), (5, 7000, 1)] {
        let n = outer * dim * inner;
        assert!(n > GRAIN_SIZE);
        let x = values(n, 7, false);
        let g = values(n, 11, false);
        let x64: Vec<f64> = x.iter().map(|&v| v as f64 * 1.1).collect();
        let what = format!("{outer}x{dim}x{inner}");
        same_bits_at_every_count(&what, || {
            let mut out = vec![0f32; n];
            let mut log = vec![0f32; n];
            let mut gi = vec![0f32; n];
            let mut lgi = vec![0f32; n];
            let mut out64 = vec![0f64; n];
            let mut log64 = vec![0f64; n];
            softmax::softmax_f32(&x, &mut out, outer, dim, inner);
            softmax::log_softmax_f32(&x, &mut log, outer, dim, inner);
            softmax::softmax_backward_f32(&g, &out, &mut gi, outer, dim, inner);
            softmax::log_softmax_backward_f32(&g, &log, &mut lgi, outer, dim, inner);
            softmax::softmax_f64(&x64, &mut out64, outer, dim, inner);
            softmax::log_softmax_f64(&x64, &mut log64, outer, dim, inner);
            // the same kernels into fresh outputs that are not zeroed first
            let fresh = |v: Option<Vec<f32>>| bits(&v.expect("memory"));
            let fresh64 = |v: Option<Vec<f64>>| bits64(&v.expect("memory"));
            let new_out = softmax::softmax_f32_new(&x, outer, dim, inner, false);
            assert_eq!(fresh(new_out), bits(&out), "{what} softmax");
            let new_log = softmax::softmax_f32_new(&x, outer, dim, inner, true);
            assert_eq!(fresh(new_log), bits(&log), "{what} log_softmax");
            let new_gi = softmax::softmax_backward_f32_new(&g, &out, outer, dim, inner, false);
            assert_eq!(fresh(new_gi), bits(&gi), "{what} softmax backward");
            let new_lgi = softmax::softmax_backward_f32_new(&g, &log, outer, dim, inner, true);
            assert_eq!(fresh(new_lgi), bits(&lgi), "{what} log_softmax backward");
            let new_out64 = softmax::softmax_f64_new(&x64, outer, dim, inner, false);
            assert_eq!(fresh64(new_out64), bits64(&out64), "{what} softmax f64");
            let new_log64 = softmax::softmax_f64_new(&x64, outer, dim, inner, true);
            assert_eq!(fresh64(new_log64), bits64(&log64), "{what} log_softmax f64");
            (
                [bits(&out), bits(&log), bits(&gi), bits(&lgi)],
                [bits64(&out64), bits64(&log64)],
            )
        });
    }
}

/// Each op at every thread count equals the one-thread kernel as it was before the split
/// (`*_serial`, the recorded order), on a contiguous row whose length is not a multiple of
/// the vector step, and on a transposed view.
#[test]
fn sleef_unary_and_binary_kernels_keep_their_vector_split_at_every_thread_count() {
    let n = 3 * GRAIN_SIZE + 45; // odd, not a multiple of 32 or 64
    let x = values(n, 3, true);
    let y = values(n, 5, true);
    let shape = [n];
    let c = [1usize];
    let flat = View::contiguous(&shape, &c);
    let (rows, cols) = (301usize, 313usize); // fits in x: rows * cols < n
    let t_shape = [cols, rows];
    let t_strides = [1usize, cols];
    let o_strides = [rows, 1usize];
    let transposed = View::contiguous(&t_shape, &t_strides);
    let t_out = View::contiguous(&t_shape, &o_strides);
    let ops = [
        Unary::Sigmoid,
        Unary::Exp,
        Unary::Gelu,
        Unary::GeluTanh,
        Unary::Silu,
        Unary::PowScalar {
            exponent: 1.0 / 1.5,
        },
    ];
    let views = UnaryViews {
        flat,
        transposed,
        t_out,
        t_len: rows * cols,
    };
    for op in ops {
        views.check(op, &x, unary_strided_f32_serial, unary_strided_f32, bits);
    }
    let x64: Vec<f64> = x.iter().map(|&v| v as f64 * 1.3).collect();
    for op in [
        UnaryF64::Sigmoid,
        UnaryF64::Expm1,
        UnaryF64::Mish,
        UnaryF64::GeluTanh,
    ] {
        views.check(
            op,
            &x64,
            unary_strided_f64_serial,
            unary_strided_f64,
            bits64,
        );
    }
    let zero = [0usize];
    let scalar = View::contiguous(&shape, &zero);
    for op in [Binary::Atan2, Binary::Pow] {
        for (bv, what) in [(flat, "two rows"), (scalar, "a broadcast scalar")] {
            let mut want = vec![0f32; n];
            binary_strided_f32_serial(op, &x, flat, &y, bv, &mut want, flat);
            same_bits_at_every_count(&format!("{op:?} with {what}"), || {
                let mut out = vec![0f32; n];
                binary_strided_f32(op, &x, flat, &y, bv, &mut out, flat);
                assert_eq!(bits(&out), bits(&want), "{op:?} with {what}");
                bits(&out)
            });
        }
    }
}

#[test]
fn host_elementwise_ops_do_not_depend_on_the_thread_count() {
    use crate::engine::host::elementwise::{add_scaled, binary, unary};
    let (rows, cols) = (257usize, 263usize);
    let n = rows * cols;
    assert!(n > GRAIN_SIZE);
    let x = values(n, 13, true);
    let y = values(n, 17, true);
    let f32s = |v: &[f32]| HostStorage::F32(v.to_vec());
    let f64s = |v: &[f32]| HostStorage::F64(v.iter().map(|&a| a as f64).collect());
    let contiguous = Layout::contiguous(&[rows, cols]);
    let transposed = Layout::new(vec![cols, rows], vec![1, cols], 0);
    for (make, dtype) in [
        (f32s as fn(&[f32]) -> HostStorage, DType::Float32),
        (f64s, DType::Float64),
    ] {
        let (hx, hy) = (make(&x), make(&y));
        for layout in [&contiguous, &transposed] {
            for op in [UnaryOp::Neg, UnaryOp::Sigmoid, UnaryOp::Sin, UnaryOp::Exp] {
                same_bits_at_every_count(&format!("{op:?} {dtype:?}"), || {
                    storage_bits(&unary(&hx, layout, op).expect("unary"))
                });
            }
            for op in [
                BinaryOp::Add,
                BinaryOp::Div,
                BinaryOp::Atan2,
                BinaryOp::Pow,
                BinaryOp::Lt,
            ] {
                same_bits_at_every_count(&format!("{op:?} {dtype:?}"), || {
                    let with_tensor = binary(
                        op,
                        Arg::Tensor(&hx, layout),
                        Arg::Tensor(&hy, &Layout::contiguous(&layout.shape)),
                        n,
                        dtype,
                    )
                    .expect("binary");
                    let with_number = binary(
                        op,
                        Arg::Tensor(&hx, layout),
                        Arg::Scalar(Scalar::Float(0.7)),
                        n,
                        dtype,
                    )
                    .expect("binary with a number");
                    (storage_bits(&with_tensor), storage_bits(&with_number))
                });
            }
            same_bits_at_every_count(&format!("add with alpha {dtype:?}"), || {
                let r = add_scaled(
                    Arg::Tensor(&hx, layout),
                    Arg::Tensor(&hy, &Layout::contiguous(&layout.shape)),
                    Scalar::Float(0.3),
                    n,
                    dtype,
                )
                .expect("add_scaled");
                storage_bits(&r)
            });
        }
    }
}

#[test]
fn copies_casts_and_fills_do_not_depend_on_the_thread_count() {
    use crate::engine::host::elementwise::{copy_into, fill, gather, to_dtype};
    let (rows, cols) = (263usize, 257usize);
    let n = rows * cols;
    let x = values(n, 23, true);
    let hx = HostStorage::F32(x.clone());
    let contiguous = Layout::contiguous(&[rows, cols]);
    let transposed = Layout::new(vec![cols, rows], vec![1, cols], 0);
    // a contiguous window that starts past the storage's first element
    let window = Layout::new(vec![n - 7], vec![1], 7);
    for layout in [&contiguous, &transposed, &window] {
        same_bits_at_every_count("gather", || bits(&gather(&x, layout).expect("gather")));
        for dtype in [DType::Float32, DType::Float64, DType::Int32] {
            same_bits_at_every_count(&format!("to {dtype:?}"), || {
                let h = to_dtype(&hx, layout, dtype).expect("cast");
                match h {
                    HostStorage::I32(v) => v.iter().map(|&i| i as u64).collect(),
                    other => storage_bits(&other),
                }
            });
        }
        same_bits_at_every_count("copy and fill", || {
            let mut dst = HostStorage::F64(vec![1.5; n]);
            copy_into(&mut dst, layout, &hx, &Layout::contiguous(&layout.shape)).expect("copy");
            let copied = storage_bits(&dst);
            fill(&mut dst, layout, Scalar::Float(-2.25));
            (copied, storage_bits(&dst))
        });
    }
}

#[test]
fn max_min_and_their_indices_along_a_dim_do_not_depend_on_the_thread_count() {
    use crate::engine::host::extreme::extreme_dim_f32;
    let (a, b, c) = (61usize, 53usize, 29usize);
    let n = a * b * c;
    assert!(n > GRAIN_SIZE);
    let x = values(n, 19, true);
    let contiguous = Layout::contiguous(&[a, b, c]);
    let permuted = contiguous.permuted(&[2, 0, 1]);
    for layout in [&contiguous, &permuted] {
        for dim in 0..3 {
            for is_max in [true, false] {
                same_bits_at_every_count(&format!("dim {dim} max {is_max}"), || {
                    let (v, i) = extreme_dim_f32(&x, layout, dim, is_max).expect("extreme");
                    (bits(&v), i)
                });
            }
        }
    }
}

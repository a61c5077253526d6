//! The iteration order of ATen's `TensorIterator`, for kernels whose rounding depends on it.
//!
//! A reduction's result depends on how the iterator groups elements: it sorts the dimensions
//! (reduced ones first, then by stride, fastest first), merges dimensions that are adjacent in
//! memory, and hands the kernel 2-d slices (`size0` x `size1`) while it walks the rest itself.
//! An elementwise op's result can depend on it too, where the vector and scalar versions of the
//! op round differently (the vector loop runs on the first multiple of 32 of each contiguous
//! row). This module reproduces `reorder_dimensions`, `coalesce_dimensions` and
//! `serial_for_each` (TensorIterator.cpp) for one thread. Strides are in elements; all operands
//! of one plan have the same element size, as in the kernels reproduced here.

/// A strided view of a buffer: sizes and strides (elements, slowest dimension first) and the
/// offset of the first element.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub shape: &'a [usize],
    pub strides: &'a [usize],
    pub offset: usize,
}

impl<'a> View<'a> {
    pub fn contiguous(shape: &'a [usize], strides: &'a [usize]) -> Self {
        View {
            shape,
            strides,
            offset: 0,
        }
    }
}

/// The loop structure for one set of operands, after sorting and merging dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IterPlan {
    /// Sizes, fastest dimension first.
    pub shape: Vec<usize>,
    /// Per operand, its stride (elements) in each dimension of `shape`.
    pub strides: Vec<Vec<usize>>,
    /// Per operand, the element offset of its first element.
    pub offsets: Vec<usize>,
}

/// One operand given to [`plan`]: strides in the order of the caller's shape (slowest first, as
/// PyTorch prints them) and the offset of its first element.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    pub strides: &'a [usize],
    pub offset: usize,
    /// An output of a reduction (reduced dimensions carry stride 0 and are sorted first).
    pub reduced_output: bool,
    /// An output the iterator allocates itself: it does not take part in the sort
    /// (`will_resize` in TensorIterator).
    pub allocated: bool,
}

impl<'a> Operand<'a> {
    pub fn input(strides: &'a [usize], offset: usize) -> Self {
        Operand {
            strides,
            offset,
            reduced_output: false,
            allocated: false,
        }
    }
}

/// TensorIterator's `reorder_dimensions`: the caller's dimensions, fastest first.
pub(crate) fn sort_dims(shape: &[usize], operands: &[Operand<'_>]) -> Vec<usize> {
    let ndim = shape.len();
    // perm[0] is the fastest dimension: start from the reverse of the given order.
    let mut perm: Vec<usize> = (0..ndim).rev().collect();
    // 1: dim0 goes after dim1; -1: before; 0: undecided (TensorIterator's should_swap).
    let should_swap = |d0: usize, d1: usize| -> i32 {
        for op in operands {
            if op.allocated {
                continue;
            }
            let s0 = op.strides[d0];
            let s1 = op.strides[d1];
            if op.reduced_output && ((s0 == 0) != (s1 == 0)) {
                return if s1 == 0 { 1 } else { -1 };
            }
            if s0 == 0 || s1 == 0 {
                continue;
            } else if s0 < s1 {
                return -1;
            } else if s0 > s1 {
                return 1;
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    insertion_sort_dims(&mut perm, should_swap);
    perm
}

/// reorder_dimensions' insertion sort of `perm` (fastest dimension first): each dimension
/// moves back past those `should_swap(earlier, it)` answers 1 for (it goes first), stopping
/// at the first -1 (it stays after); 0 (undecided) looks further back.
pub(crate) fn insertion_sort_dims(perm: &mut [usize], should_swap: impl Fn(usize, usize) -> i32) {
    for i in 1..perm.len() {
        let mut dim1 = i;
        for dim0 in (0..i).rev() {
            let c = should_swap(perm[dim0], perm[dim1]);
            if c > 0 {
                perm.swap(dim0, dim1);
                dim1 = dim0;
            } else if c < 0 {
                break;
            }
        }
    }
}

/// The strides (caller's order) TensorIterator gives an output it allocates for inputs with
/// these strides: dense in the iteration order, so a transposed input gives a transposed output
/// and a sliced one a contiguous output.
pub fn allocated_output_strides(shape: &[usize], inputs: &[&[usize]]) -> Vec<usize> {
    let ops: Vec<Operand<'_>> = inputs.iter().map(|s| Operand::input(s, 0)).collect();
    let perm = sort_dims(shape, &ops);
    let mut strides = vec![0usize; shape.len()];
    let mut acc = 1usize;
    for &d in &perm {
        strides[d] = acc;
        acc *= shape[d].max(1);
    }
    strides
}

/// Sorts and merges the dimensions of `shape` for these operands, as TensorIterator does.
pub(crate) fn plan(shape: &[usize], operands: &[Operand<'_>]) -> IterPlan {
    let ndim = shape.len();
    let perm = sort_dims(shape, operands);
    let mut sh: Vec<usize> = perm.iter().map(|&d| shape[d]).collect();
    let mut st: Vec<Vec<usize>> = operands
        .iter()
        .map(|op| {
            perm.iter()
                .map(|&d| if op.allocated { 0 } else { op.strides[d] })
                .collect()
        })
        .collect();
    // Allocated outputs are laid out densely in the sorted order (TensorIterator's
    // compute_strides / set_output for a resized output).
    for (k, op) in operands.iter().enumerate() {
        if op.allocated {
            let mut acc = 1;
            for d in 0..ndim {
                st[k][d] = acc;
                acc *= sh[d];
            }
        }
    }
    // coalesce_dimensions
    if ndim > 1 {
        let mut prev = 0usize;
        for dim in 1..ndim {
            let can =
                sh[prev] == 1 || sh[dim] == 1 || st.iter().all(|s| sh[prev] * s[prev] == s[dim]);
            if can {
                if sh[prev] == 1 {
                    for s in st.iter_mut() {
                        s[prev] = s[dim];
                    }
                }
                sh[prev] *= sh[dim];
            } else {
                prev += 1;
                if prev != dim {
                    for s in st.iter_mut() {
                        s[prev] = s[dim];
                    }
                    sh[prev] = sh[dim];
                }
            }
        }
        sh.truncate(prev + 1);
        for s in st.iter_mut() {
            s.truncate(prev + 1);
        }
    }
    IterPlan {
        shape: sh,
        strides: st,
        offsets: operands.iter().map(|o| o.offset).collect(),
    }
}

impl IterPlan {
    pub(crate) fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// `serial_for_each` over the whole range: calls `f(offsets, size0, size1, strides0,
    /// strides1)` for each 2-d slice, with per-operand element offsets and strides of the two
    /// innermost dimensions (zeros where the plan has fewer dimensions).
    pub(crate) fn for_each_2d(
        &self,
        mut f: impl FnMut(&[usize], usize, usize, &[usize], &[usize]),
    ) {
        let nops = self.strides.len();
        let ndim = self.shape.len();
        if self.numel() == 0 {
            return;
        }
        let s0: Vec<usize> = (0..nops)
            .map(|k| if ndim >= 1 { self.strides[k][0] } else { 0 })
            .collect();
        let s1: Vec<usize> = (0..nops)
            .map(|k| if ndim >= 2 { self.strides[k][1] } else { 0 })
            .collect();
        if ndim <= 1 {
            let n = if ndim == 1 { self.shape[0] } else { 1 };
            f(&self.offsets, n, 1, &s0, &s1);
            return;
        }
        let mut counter = vec![0usize; ndim];
        let mut offs = self.offsets.clone();
        loop {
            // One poll per slice: a stopped op ends here, its partial result discarded.
            if crate::engine::interrupt::should_stop() {
                return;
            }
            f(&offs, self.shape[0], self.shape[1], &s0, &s1);
            // advance the odometer over dims 2..
            let mut d = 2;
            loop {
                if d == ndim {
                    return;
                }
                counter[d] += 1;
                for (o, s) in offs.iter_mut().zip(&self.strides) {
                    *o += s[d];
                }
                if counter[d] < self.shape[d] {
                    break;
                }
                for (o, s) in offs.iter_mut().zip(&self.strides) {
                    *o -= s[d] * self.shape[d];
                }
                counter[d] = 0;
                d += 1;
            }
        }
    }
}

/// The contiguous output of reducing `dims` (empty: all) of a tensor of `shape`: its shape
/// (the kept dimensions) and its stride along each of `shape`'s dimensions (0 on a reduced
/// one), as TensorIterator's reduction output sees it.
pub(crate) fn reduction_output(shape: &[usize], dims: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let ndim = shape.len();
    let reduced: Vec<bool> = (0..ndim)
        .map(|d| dims.is_empty() || dims.contains(&d))
        .collect();
    let out_shape: Vec<usize> = (0..ndim)
        .filter(|&d| !reduced[d])
        .map(|d| shape[d])
        .collect();
    let kept = contiguous_strides(&out_shape);
    let mut out_strides = vec![0usize; ndim];
    let mut k = 0;
    for d in 0..ndim {
        if !reduced[d] {
            out_strides[d] = kept[k];
            k += 1;
        }
    }
    (out_shape, out_strides)
}

/// The plan of a reduction of `view` into an output with `out_strides` (from
/// [`reduction_output`]): operand 0 the output, 1 the input, reduced dimensions first.
pub(crate) fn reduction_plan(view: View<'_>, out_strides: &[usize]) -> IterPlan {
    plan(
        view.shape,
        &[
            Operand {
                strides: out_strides,
                offset: 0,
                reduced_output: true,
                allocated: false,
            },
            Operand::input(view.strides, view.offset),
        ],
    )
}

/// Contiguous strides (elements) of a shape, slowest dimension first.
pub(crate) fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![0usize; shape.len()];
    let mut acc = 1usize;
    for d in (0..shape.len()).rev() {
        st[d] = acc;
        acc *= shape[d].max(1);
    }
    st
}

/// `Tensor::is_contiguous()`: row-major dense, ignoring the strides of size-1 dimensions.
pub fn is_contiguous(shape: &[usize], strides: &[usize]) -> bool {
    let mut expected = 1usize;
    for d in (0..shape.len()).rev() {
        if shape[d] != 1 {
            if strides[d] != expected {
                return false;
            }
            expected *= shape[d];
        }
    }
    true
}

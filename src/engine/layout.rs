//! Where a tensor's elements sit in its storage: shape, strides (in elements) and offset.
//! Views (transpose, slice, expand, ...) share one storage and differ only in their
//! [`Layout`]; every back-half kernel reads its operands through one.

/// Shape, strides and offset of a (possibly non-contiguous) view of a storage.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub offset: usize,
}

/// Row-major strides of `shape` (saturating: an empty tensor's dims may multiply past usize).
pub(crate) fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1].saturating_mul(shape[i + 1].max(1));
    }
    s
}

impl Layout {
    /// A fresh row-major layout of `shape` at offset 0.
    pub fn contiguous(shape: &[usize]) -> Layout {
        Layout {
            shape: shape.to_vec(),
            strides: contiguous_strides(shape),
            offset: 0,
        }
    }

    pub fn new(shape: Vec<usize>, strides: Vec<usize>, offset: usize) -> Layout {
        Layout {
            shape,
            strides,
            offset,
        }
    }

    pub fn dims(&self) -> usize {
        self.shape.len()
    }

    /// Element count (0 when any dim is 0, whatever the others multiply to).
    pub fn numel(&self) -> usize {
        if self.shape.contains(&0) {
            0
        } else {
            self.shape.iter().product()
        }
    }

    /// Row-major contiguous (size-1 dims may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for i in (0..self.dims()).rev() {
            if self.shape[i] != 1 && self.strides[i] != expected {
                return false;
            }
            expected *= self.shape[i];
        }
        true
    }

    /// The storage range of a contiguous layout's elements (empty for no elements,
    /// wherever the offset points), or None when it is not contiguous.
    pub(crate) fn contiguous_range(&self) -> Option<std::ops::Range<usize>> {
        match self.numel() {
            0 => Some(0..0),
            n => self.is_contiguous().then(|| self.offset..self.offset + n),
        }
    }

    /// The last storage position this layout can touch, plus one (0 when empty).
    pub(crate) fn storage_end(&self) -> usize {
        if self.numel() == 0 {
            return 0;
        }
        self.offset
            + self
                .shape
                .iter()
                .zip(&self.strides)
                .map(|(&d, &s)| (d - 1) * s)
                .sum::<usize>()
            + 1
    }

    /// This layout read as `shape` under broadcasting (stride 0 on new and size-1 dims that
    /// grow). The caller has checked that the shapes broadcast.
    pub(crate) fn broadcast_as(&self, shape: &[usize]) -> Layout {
        let n = shape.len();
        let k = self.dims();
        let strides = (0..n)
            .map(|i| {
                if i + k < n {
                    0
                } else {
                    let j = i + k - n;
                    if self.shape[j] == 1 && shape[i] != 1 {
                        0
                    } else {
                        self.strides[j]
                    }
                }
            })
            .collect();
        Layout {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        }
    }

    /// The same elements with the dims reordered (`perm[i]` is the old dim that becomes
    /// dim i).
    pub fn permuted(&self, perm: &[usize]) -> Layout {
        Layout {
            shape: perm.iter().map(|&d| self.shape[d]).collect(),
            strides: perm.iter().map(|&d| self.strides[d]).collect(),
            offset: self.offset,
        }
    }

    /// Visit the storage offsets in logical (row-major) order.
    pub(crate) fn for_each_offset(&self, f: impl FnMut(usize)) {
        for_each_offset(&self.shape, &self.strides, self.offset, f)
    }

    /// The storage offsets in logical order.
    pub fn offsets(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.numel());
        self.for_each_offset(|o| out.push(o));
        out
    }

    /// Runs of the innermost dim: calls `f(start, len, stride)` for each run of `len`
    /// elements at storage offsets `start, start + stride, ...`, in logical order. Kernels
    /// loop over the run themselves, which the compiler can vectorise when stride is 1.
    pub(crate) fn for_each_run(&self, mut f: impl FnMut(usize, usize, usize)) {
        if self.numel() == 0 {
            return;
        }
        if self.is_contiguous() {
            f(self.offset, self.numel(), 1);
            return;
        }
        for_each_inner_run(&self.shape, &self.strides, self.offset, f);
    }
}

/// Visit the storage offsets of a strided view in logical (row-major) order.
pub(crate) fn for_each_offset(
    shape: &[usize],
    strides: &[usize],
    offset: usize,
    mut f: impl FnMut(usize),
) {
    if shape.contains(&0) {
        return;
    }
    let nd = shape.len();
    if nd == 0 {
        f(offset);
        return;
    }
    for_each_inner_run(shape, strides, offset, |start, len, stride| {
        let mut o = start;
        for _ in 0..len {
            f(o);
            o += stride;
        }
    });
}

/// The odometer under [`Layout::for_each_run`] and [`for_each_offset`]: `f(start, len,
/// stride)` for each run of the innermost dimension, in logical order. `shape` has at least
/// one dimension and no zero-sized one.
fn for_each_inner_run(
    shape: &[usize],
    strides: &[usize],
    offset: usize,
    mut f: impl FnMut(usize, usize, usize),
) {
    let nd = shape.len();
    let last = nd - 1;
    let (len, st) = (shape[last], strides[last]);
    let mut idx = vec![0usize; nd];
    let mut base = offset;
    loop {
        f(base, len, st);
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            base += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            base -= strides[d] * shape[d];
            idx[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_strides_and_runs_cover_them() {
        let l = Layout::new(vec![2, 3], vec![1, 2], 1); // a transposed 3x2 at offset 1
        assert_eq!(l.offsets(), vec![1, 3, 5, 2, 4, 6]);
        assert!(!l.is_contiguous());
        let mut runs = Vec::new();
        l.for_each_run(|s, n, st| runs.push((s, n, st)));
        assert_eq!(runs, vec![(1, 3, 2), (2, 3, 2)]);
        assert_eq!(l.storage_end(), 7);
        let c = Layout::contiguous(&[2, 3]);
        let mut runs = Vec::new();
        c.for_each_run(|s, n, st| runs.push((s, n, st)));
        assert_eq!(runs, vec![(0, 6, 1)]);
        let b = Layout::contiguous(&[3]).broadcast_as(&[2, 3]);
        assert_eq!(b.offsets(), vec![0, 1, 2, 0, 1, 2]);
        assert_eq!(Layout::contiguous(&[]).offsets(), vec![0]);
        assert_eq!(Layout::contiguous(&[0, 4]).offsets(), Vec::<usize>::new());
    }
}

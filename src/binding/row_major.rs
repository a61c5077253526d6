//! Walking a shape's multi-indices in row-major order, the order numpy and torch hand out
//! elements in. Self-contained (no `crate::` paths) so that tests/numerics_support can include
//! this file and walk strided views the way the product does.

/// Advances `idx` to the next multi-index of `shape` in row-major order: the last dimension
/// moves fastest, and a dimension that runs past its size goes back to 0 and carries into the
/// one before. After the last index, `idx` is all zeros again.
pub(crate) fn step_index(idx: &mut [usize], shape: &[usize]) {
    for (i, &size) in idx.iter_mut().zip(shape).rev() {
        *i += 1;
        if *i < size {
            return;
        }
        *i = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::step_index;

    #[test]
    fn last_dimension_moves_fastest_and_carries_into_the_one_before() {
        let shape = [2, 3];
        let mut idx = [0, 0];
        let mut seen = vec![idx];
        for _ in 1..6 {
            step_index(&mut idx, &shape);
            seen.push(idx);
        }
        assert_eq!(seen, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
        step_index(&mut idx, &shape);
        assert_eq!(idx, [0, 0], "after the last index the walk starts over");
    }

    #[test]
    fn a_scalar_shape_has_one_index() {
        let mut idx: [usize; 0] = [];
        step_index(&mut idx, &[]);
        assert_eq!(idx, [0usize; 0]);
    }
}

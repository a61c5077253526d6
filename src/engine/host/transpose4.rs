//! The 4 x 4 transpose of four rows of four floats, in vector registers where the CPU has
//! them: packing a transposed operand for a product moves every value through it.

/// `out[t] = [a[t], b[t], c[t], d[t]]` for the first four values of each row.
#[cfg(target_arch = "x86_64")]
pub(crate) fn transpose4(a: &[f32], b: &[f32], c: &[f32], d: &[f32]) -> [[f32; 4]; 4] {
    use std::arch::x86_64::{
        _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
    };
    let rows = [&a[..4], &b[..4], &c[..4], &d[..4]];
    let mut out = [[0f32; 4]; 4];
    // SAFETY: each load reads the four floats of a slice of length 4 (sliced above, so a
    // shorter row panics before this block), each store writes the four floats of a row of
    // `out`; SSE is part of every x86-64 CPU, and the loads and stores are unaligned ones.
    unsafe {
        let [a, b, c, d] = rows.map(|r| _mm_loadu_ps(r.as_ptr()));
        let ab_low = _mm_unpacklo_ps(a, b); // a0 b0 a1 b1
        let cd_low = _mm_unpacklo_ps(c, d); // c0 d0 c1 d1
        let ab_high = _mm_unpackhi_ps(a, b); // a2 b2 a3 b3
        let cd_high = _mm_unpackhi_ps(c, d); // c2 d2 c3 d3
        _mm_storeu_ps(out[0].as_mut_ptr(), _mm_movelh_ps(ab_low, cd_low));
        _mm_storeu_ps(out[1].as_mut_ptr(), _mm_movehl_ps(cd_low, ab_low));
        _mm_storeu_ps(out[2].as_mut_ptr(), _mm_movelh_ps(ab_high, cd_high));
        _mm_storeu_ps(out[3].as_mut_ptr(), _mm_movehl_ps(cd_high, ab_high));
    }
    out
}

/// `out[t] = [a[t], b[t], c[t], d[t]]` for the first four values of each row.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn transpose4(a: &[f32], b: &[f32], c: &[f32], d: &[f32]) -> [[f32; 4]; 4] {
    std::array::from_fn(|t| [a[t], b[t], c[t], d[t]])
}

#[cfg(test)]
mod tests {
    use super::transpose4;

    #[test]
    fn rows_become_columns() {
        let rows: Vec<Vec<f32>> = (0..4)
            .map(|r| (0..5).map(|c| (10 * r + c) as f32).collect())
            .collect();
        let out = transpose4(&rows[0], &rows[1], &rows[2], &rows[3]);
        for (t, column) in out.iter().enumerate() {
            assert_eq!(
                column,
                &[t as f32, 10.0 + t as f32, 20.0 + t as f32, 30.0 + t as f32]
            );
        }
    }
}

//! The element order of PyTorch's CPU selection kernels, where equal values make the order
//! visible through the indices they return.
//!
//! `topk` (aten/src/ATen/native/TopKImpl.h) fills (value, index) pairs and runs libstdc++'s
//! `std::partial_sort` (when `k * 64 <= n`) or `std::nth_element` followed by `std::sort` of the
//! first `k - 1`, with a comparator that looks at values only; the algorithms below follow
//! libstdc++'s (bits/stl_algo.h, bits/stl_heap.h) step for step so ties land where PyTorch's
//! do. `kthvalue` (Sorting.cpp) uses PyTorch's own `quick_select_template` (SortingUtils.h).

/// One queue entry: the value and its position in the row.
type Elem = (f64, usize);

/// `comp(x, y)` of topk: NaN counts as the largest value.
fn topk_less(largest: bool) -> impl Fn(&Elem, &Elem) -> bool {
    move |x: &Elem, y: &Elem| {
        if largest {
            (x.0.is_nan() && !y.0.is_nan()) || x.0 > y.0
        } else {
            (!x.0.is_nan() && y.0.is_nan()) || x.0 < y.0
        }
    }
}

/// `std::__lg`: floor(log2(n)) for n > 0.
fn lg(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

fn move_median_to_first<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    comp: &F,
) {
    if comp(&v[a], &v[b]) {
        if comp(&v[b], &v[c]) {
            v.swap(result, b);
        } else if comp(&v[a], &v[c]) {
            v.swap(result, c);
        } else {
            v.swap(result, a);
        }
    } else if comp(&v[a], &v[c]) {
        v.swap(result, a);
    } else if comp(&v[b], &v[c]) {
        v.swap(result, c);
    } else {
        v.swap(result, b);
    }
}

/// `std::__unguarded_partition` with the pivot at `pivot` (outside [first, last)).
fn unguarded_partition<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    mut first: usize,
    mut last: usize,
    pivot: usize,
    comp: &F,
) -> usize {
    loop {
        while comp(&v[first], &v[pivot]) {
            first += 1;
        }
        last -= 1;
        while comp(&v[pivot], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

fn unguarded_partition_pivot<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    last: usize,
    comp: &F,
) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, comp);
    unguarded_partition(v, first + 1, last, first, comp)
}

fn unguarded_linear_insert<F: Fn(&Elem, &Elem) -> bool>(v: &mut [Elem], mut last: usize, comp: &F) {
    let val = v[last];
    let mut next = last - 1;
    while comp(&val, &v[next]) {
        v[last] = v[next];
        last = next;
        if next == 0 {
            break;
        }
        next -= 1;
    }
    v[last] = val;
}

fn insertion_sort<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    last: usize,
    comp: &F,
) {
    if first == last {
        return;
    }
    for i in first + 1..last {
        if comp(&v[i], &v[first]) {
            let val = v[i];
            v.copy_within(first..i, first + 1);
            v[first] = val;
        } else {
            unguarded_linear_insert(v, i, comp);
        }
    }
}

fn unguarded_insertion_sort<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    last: usize,
    comp: &F,
) {
    for i in first..last {
        unguarded_linear_insert(v, i, comp);
    }
}

fn push_heap<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    mut hole: usize,
    top: usize,
    value: Elem,
    comp: &F,
) {
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && comp(&v[first + parent], &value) {
        v[first + hole] = v[first + parent];
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    v[first + hole] = value;
}

fn adjust_heap<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    mut hole: usize,
    len: usize,
    value: Elem,
    comp: &F,
) {
    let top = hole;
    let mut second = hole;
    while len >= 1 && second < (len - 1) / 2 {
        second = 2 * (second + 1);
        if comp(&v[first + second], &v[first + second - 1]) {
            second -= 1;
        }
        v[first + hole] = v[first + second];
        hole = second;
    }
    if len & 1 == 0 && len >= 2 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v[first + hole] = v[first + second - 1];
        hole = second - 1;
    }
    push_heap(v, first, hole, top, value, comp);
}

fn make_heap<F: Fn(&Elem, &Elem) -> bool>(v: &mut [Elem], first: usize, last: usize, comp: &F) {
    let len = last - first;
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let value = v[first + parent];
        adjust_heap(v, first, parent, len, value, comp);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

fn pop_heap<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    last: usize,
    result: usize,
    comp: &F,
) {
    let value = v[result];
    v[result] = v[first];
    adjust_heap(v, first, 0, last - first, value, comp);
}

fn heap_select<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    middle: usize,
    last: usize,
    comp: &F,
) {
    make_heap(v, first, middle, comp);
    for i in middle..last {
        if comp(&v[i], &v[first]) {
            pop_heap(v, first, middle, i, comp);
        }
    }
}

fn sort_heap<F: Fn(&Elem, &Elem) -> bool>(v: &mut [Elem], first: usize, mut last: usize, comp: &F) {
    while last - first > 1 {
        last -= 1;
        pop_heap(v, first, last, last, comp);
    }
}

/// `std::partial_sort(first, middle, last)`.
fn partial_sort<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    middle: usize,
    last: usize,
    comp: &F,
) {
    heap_select(v, first, middle, last, comp);
    sort_heap(v, first, middle, comp);
}

/// `std::nth_element(first, nth, last)` (`std::__introselect`).
fn nth_element<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    mut first: usize,
    nth: usize,
    mut last: usize,
    comp: &F,
) {
    if first == last || nth == last {
        return;
    }
    let mut depth = lg(last - first) * 2;
    while last - first > 3 {
        if depth == 0 {
            heap_select(v, first, nth + 1, last, comp);
            v.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = unguarded_partition_pivot(v, first, last, comp);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(v, first, last, comp);
}

/// `std::sort(first, last)` (introsort, then the final insertion sort).
fn stl_sort<F: Fn(&Elem, &Elem) -> bool>(v: &mut [Elem], first: usize, last: usize, comp: &F) {
    if first == last {
        return;
    }
    introsort_loop(v, first, last, lg(last - first) * 2, comp);
    if last - first > 16 {
        insertion_sort(v, first, first + 16, comp);
        unguarded_insertion_sort(v, first + 16, last, comp);
    } else {
        insertion_sort(v, first, last, comp);
    }
}

fn introsort_loop<F: Fn(&Elem, &Elem) -> bool>(
    v: &mut [Elem],
    first: usize,
    mut last: usize,
    mut depth: usize,
    comp: &F,
) {
    while last - first > 16 {
        if depth == 0 {
            partial_sort(v, first, last, last, comp);
            return;
        }
        depth -= 1;
        let cut = unguarded_partition_pivot(v, first, last, comp);
        introsort_loop(v, cut, last, depth, comp);
        last = cut;
    }
}

/// The positions topk returns for one row, in its output order (`sorted=True`).
pub(crate) fn topk_order(row: &[f64], k: usize, largest: bool) -> Vec<usize> {
    let n = row.len();
    if k == 0 || n == 0 {
        return Vec::new();
    }
    let comp = topk_less(largest);
    let mut queue: Vec<Elem> = row.iter().copied().zip(0..n).collect();
    if k * 64 <= n {
        partial_sort(&mut queue, 0, k, n, &comp);
    } else {
        nth_element(&mut queue, 0, k - 1, n, &comp);
        // TopKImpl.h sorts the first k - 1: the k-th is already in place
        stl_sort(&mut queue, 0, k - 1, &comp);
    }
    queue.iter().take(k).map(|e| e.1).collect()
}

/// The position kthvalue returns for one row: `quick_select_template` with its
/// greater-or-NaN comparison, k counted from 1.
pub(crate) fn kth_position(row: &[f64], k: usize) -> usize {
    let n = row.len();
    if n == 0 {
        return 0;
    }
    let mut vals: Vec<f64> = row.to_vec();
    let mut idx: Vec<usize> = (0..n).collect();
    let gt = |x: f64, y: f64| (x.is_nan() && !y.is_nan()) || x > y;
    // k is checked by the caller; clamped so no k can index past the row
    let target = (k.clamp(1, n) - 1) as i64;
    let mut swap = |vals: &mut Vec<f64>, i: i64, j: i64| {
        vals.swap(i as usize, j as usize);
        idx.swap(i as usize, j as usize);
    };
    let (mut l, mut r) = (0i64, n as i64 - 1);
    loop {
        if r <= l {
            break;
        }
        if r == l + 1 {
            if gt(vals[l as usize], vals[r as usize]) {
                swap(&mut vals, l, r);
            }
            break;
        }
        let p = l + (r - l) / 2;
        swap(&mut vals, p, l + 1);
        if gt(vals[(l + 1) as usize], vals[r as usize]) {
            swap(&mut vals, l + 1, r);
        }
        if gt(vals[l as usize], vals[r as usize]) {
            swap(&mut vals, l, r);
        }
        if gt(vals[(l + 1) as usize], vals[l as usize]) {
            swap(&mut vals, l + 1, l);
        }
        let mut i = l + 1;
        let mut j = r;
        let piv = vals[l as usize];
        loop {
            loop {
                i += 1;
                if !gt(piv, vals[i as usize]) {
                    break;
                }
            }
            loop {
                j -= 1;
                if !gt(vals[j as usize], piv) {
                    break;
                }
            }
            if j < i {
                break;
            }
            swap(&mut vals, i, j);
        }
        swap(&mut vals, l, j);
        if j <= target {
            l = i;
        }
        if j >= target {
            r = j - 1;
        }
    }
    idx[target as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topk_ties_follow_nth_element_then_sort() {
        // PyTorch 2.15: torch.tensor([5, 5, 7, 6, 5]).topk(3) gives indices [2, 3, 0]
        assert_eq!(
            topk_order(&[5.0, 5.0, 7.0, 6.0, 5.0], 3, true),
            vec![2, 3, 0]
        );
    }

    #[test]
    fn topk_of_a_long_row_uses_partial_sort() {
        let row: Vec<f64> = (0..200).map(|i| (i % 7) as f64).collect();
        let got = topk_order(&row, 3, true);
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|&i| row[i] == 6.0));
    }

    #[test]
    fn kth_position_picks_a_row_element_of_the_kth_value() {
        let row = [3.0, 1.0, 2.0, 1.0, 5.0];
        let i = kth_position(&row, 2);
        assert_eq!(row[i], 1.0);
    }
}

//! Long copies inside one operation, done a chunk at a time with the run's limits polled
//! between chunks: `x[:]` or `list(x)` of ten million items, `'a' * 10**7`, `a + b`,
//! `''.join(parts)`. Charging the whole copy as work before doing it polled once, before the
//! copy, so a loop of them ran on for the copy's length past the time limit (a `y = x[:]` loop
//! of 10^7 items stopped 1.4 s late on the loaded machine); now the limit falls inside the copy,
//! whose partial result is dropped.

use super::ops::{budget_for, memory_error};
use super::{Interpreter, MAX_STR, WORK_CHECK};
use crate::script::ExcType;
use crate::script::errors::PyException;
use crate::script::errors::PyResult;
use crate::script::value::{Dict, HKey, Value};

/// An element of a polled copy, and how many of them make one unit of work: one value (a
/// reference count to bump), or 64 bytes of text, as the string methods count them.
pub(crate) trait Item: Clone {
    const PER_UNIT: usize;
}

impl Item for Value {
    const PER_UNIT: usize = 1;
}

impl Item for u8 {
    const PER_UNIT: usize = 64;
}

impl Item for char {
    const PER_UNIT: usize = 16;
}

/// The positions a slice takes in a sequence, in order (`Interpreter::slice_positions`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SlicePositions {
    pub(crate) next: i64,
    pub(crate) step: i64,
    pub(crate) left: usize,
}

impl SlicePositions {
    /// The positions as a range, when they are one (step 1).
    fn as_range(&self) -> Option<std::ops::Range<usize>> {
        let start = usize::try_from(self.next).ok()?;
        (self.step == 1 || self.left <= 1).then(|| start..start + self.left)
    }
}

impl Iterator for SlicePositions {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        let at = self.next;
        self.left -= 1;
        self.next = self.next.wrapping_add(self.step);
        Some(at as usize)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for SlicePositions {}

/// Elements copied between two polls: one poll's worth of work.
fn chunk<T: Item>() -> usize {
    T::PER_UNIT * WORK_CHECK as usize
}

fn units<T: Item>(items: usize) -> u64 {
    (items / T::PER_UNIT).max(1) as u64
}

impl Interpreter {
    /// Appends `src` to `out`, polling the limits between chunks.
    pub(crate) fn extend_polled<T: Item>(&mut self, out: &mut Vec<T>, src: &[T]) -> PyResult<()> {
        for part in src.chunks(chunk::<T>()) {
            out.extend_from_slice(part);
            self.work(units::<T>(part.len()))?;
        }
        Ok(())
    }

    /// A copy of `src`, within the memory budget, polling the limits between chunks.
    pub(crate) fn copy_polled<T: Item>(&mut self, src: &[T]) -> PyResult<Vec<T>> {
        let mut out = Self::reserve_within_budget(src.len())?;
        self.extend_polled(&mut out, src)?;
        Ok(out)
    }

    /// `a` then `b` in one new vector (`list + list`), polling between chunks.
    pub(crate) fn concat_polled<T: Item>(&mut self, a: &[T], b: &[T]) -> PyResult<Vec<T>> {
        let mut out = Self::reserve_within_budget(a.len().saturating_add(b.len()))?;
        self.extend_polled(&mut out, a)?;
        self.extend_polled(&mut out, b)?;
        Ok(out)
    }

    /// The elements at `indices` of `src` (an extended slice), polling between chunks.
    pub(crate) fn pick_polled<T: Item>(
        &mut self,
        src: &[T],
        indices: impl ExactSizeIterator<Item = usize>,
    ) -> PyResult<Vec<T>> {
        let mut out = Self::reserve_within_budget(indices.len())?;
        let per_poll = chunk::<T>();
        for (k, i) in indices.enumerate() {
            if let Some(x) = src.get(i) {
                out.push(x.clone());
            }
            if (k + 1) % per_poll == 0 {
                self.work(units::<T>(per_poll))?;
            }
        }
        Ok(out)
    }

    /// `src[slice]`: a polled copy of a range, or of the positions one by one (positions past
    /// the end left out).
    pub(crate) fn slice_polled<T: Item>(
        &mut self,
        src: &[T],
        positions: SlicePositions,
    ) -> PyResult<Vec<T>> {
        match positions.as_range() {
            Some(range) if range.end <= src.len() => self.copy_polled(&src[range]),
            _ => self.pick_polled(src, positions),
        }
    }

    /// `v * n` for a sequence: doubling copies (memcpy speed for `'y' * 10**7`, not ten million
    /// one-element appends), each at most a chunk, polling between them. The total is bounded
    /// by `max_total` elements and the run's memory budget (MemoryError past either).
    pub(crate) fn repeat_polled<T: Item>(
        &mut self,
        v: &[T],
        n: i64,
        max_total: usize,
    ) -> PyResult<Vec<T>> {
        if n <= 0 || v.is_empty() {
            return Ok(Vec::new());
        }
        let total = usize::try_from(n)
            .ok()
            .and_then(|n| v.len().checked_mul(n))
            .filter(|t| *t <= max_total)
            .ok_or_else(memory_error)?;
        let mut out = Self::reserve_within_budget(total)?;
        self.extend_polled(&mut out, v)?;
        while out.len() < total {
            let k = (total - out.len()).min(out.len()).min(chunk::<T>());
            out.extend_from_within(..k);
            self.work(units::<T>(k))?;
        }
        Ok(out)
    }

    /// Appends `s` to `out`, polling between chunks (cut at character boundaries).
    pub(crate) fn push_str_polled(&mut self, out: &mut String, s: &str) -> PyResult<()> {
        let mut rest = s;
        while !rest.is_empty() {
            let mut cut = rest.len().min(chunk::<u8>());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            out.push_str(&rest[..cut]);
            self.work(units::<u8>(cut))?;
            rest = &rest[cut..];
        }
        Ok(())
    }

    /// Appends `s` to a string's own buffer (`s += t` on a string no one else holds): the
    /// buffer at least doubles when it must grow, as CPython's resize does in effect, and that
    /// growth must fit the memory budget; polls as [`Self::push_str_polled`]. On failure the
    /// buffer is as it was.
    pub(crate) fn append_str_polled(&mut self, buf: &mut String, s: &str) -> PyResult<()> {
        let need = buf.len().saturating_add(s.len());
        if need > MAX_STR {
            return Err(PyException::new(ExcType::MemoryError, ""));
        }
        if need > buf.capacity() {
            budget_for::<u8>(need.max(buf.capacity().saturating_mul(2)))?;
            buf.try_reserve(s.len()).map_err(|_| memory_error())?;
        }
        let old_len = buf.len();
        let r = self.push_str_polled(buf, s);
        if r.is_err() {
            buf.truncate(old_len);
        }
        r
    }

    /// A copy of a dict or set, within the memory budget, polling between chunks of entries.
    pub(crate) fn copy_dict_polled(&mut self, d: &Dict) -> PyResult<Dict> {
        // an entry and its index slot
        budget_for::<(Option<(HKey, Value, Value)>, usize, u64)>(d.slots())?;
        d.clone_polled(chunk::<Value>(), |n| self.work(n as u64), memory_error)
    }

    /// `s.copy()`, `set(s)`: laid out as CPython lays the copy out (`Dict::set_copy`, which
    /// simulates sets of up to 100,000 items and copies larger ones as they are); large ones
    /// copied a chunk at a time, polling between chunks.
    pub(crate) fn copy_set_polled(&mut self, s: &Dict) -> PyResult<Dict> {
        if s.len() > Dict::SIMULATED_SET_MAX {
            return self.copy_dict_polled(s);
        }
        budget_for::<(Option<(HKey, Value, Value)>, usize, u64)>(s.slots())?;
        let out = s.set_copy();
        self.work(s.len() as u64)?;
        Ok(out)
    }

    /// An empty vector with room for `n` elements, or MemoryError (the run's budget, then the
    /// allocator).
    fn reserve_within_budget<T>(n: usize) -> PyResult<Vec<T>> {
        budget_for::<T>(n)?;
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| memory_error())?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::script::{Interpreter, Limits};
    use std::time::Duration;

    fn interpreter() -> Interpreter {
        Interpreter::new(Limits {
            max_steps: u64::MAX,
            max_wall: Duration::from_secs(60),
            cancel: None,
        })
    }

    #[test]
    fn polled_copies_give_what_plain_ones_do() {
        let mut it = interpreter();
        let src: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(it.copy_polled(&src).unwrap(), src);
        assert_eq!(
            it.concat_polled(&src, &src[..10]).unwrap(),
            [&src[..], &src[..10]].concat()
        );
        assert_eq!(
            it.repeat_polled(&src[..7], 300_001, usize::MAX).unwrap(),
            src[..7].repeat(300_001)
        );
        assert!(
            it.repeat_polled(&src[..7], 0, usize::MAX)
                .unwrap()
                .is_empty()
        );
        assert!(it.repeat_polled(&src[..7], 10, 69).is_err());
        let picked = it.pick_polled(&src, (0..src.len()).step_by(3)).unwrap();
        assert_eq!(picked, src.iter().step_by(3).copied().collect::<Vec<u8>>());
        let backwards = super::SlicePositions {
            next: 999_999,
            step: -2,
            left: 500_000,
        };
        assert_eq!(
            it.slice_polled(&src, backwards).unwrap(),
            src.iter().rev().step_by(2).copied().collect::<Vec<u8>>()
        );
        let middle = super::SlicePositions {
            next: 10,
            step: 1,
            left: 500_000,
        };
        assert_eq!(it.slice_polled(&src, middle).unwrap(), src[10..500_010]);
        let text = "αβγ".repeat(2_000_000);
        let mut out = String::from(">");
        it.push_str_polled(&mut out, &text).unwrap();
        assert_eq!(out, format!(">{text}"));
    }

    #[test]
    fn a_polled_copy_stops_at_the_time_limit() {
        let mut it = Interpreter::new(Limits {
            max_steps: u64::MAX,
            max_wall: Duration::ZERO,
            cancel: None,
        });
        std::thread::sleep(Duration::from_millis(2));
        let src = vec![0u8; 64 << 20];
        let e = it.copy_polled(&src).expect_err("stopped");
        assert_eq!(e.kind(), Some(crate::script::ExcType::TimeoutError));
    }
}

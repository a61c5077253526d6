//! Provenance for `cudatutor run --explain`: where a tensor's values came from, and what an op
//! found wrong with them.
//!
//! Every storage remembers the script line that allocated it, the last line that wrote into it
//! in place (`t[i] = v`, `copy_`, `+=`, `fill_`), and, for a copy (`.to()`, `.cuda()`,
//! `.clone()`, a dtype cast), a snapshot of the provenance of what it copied. When an op's check
//! fails — a class label out of range, an index past the end of a table, probabilities outside
//! [0, 1], tensors on two devices — the op records a [`Detail`] before it raises (on the CPU) or
//! launches its failing kernel (on CUDA): the offending element, its value, the bound, and the
//! provenance of the tensor that held it. The runtime keeps the latest one; the run's report
//! carries it when it belongs to the error the script ended with.
//!
//! Nothing here changes what an op computes or raises: it only remembers.

use serde::{Deserialize, Serialize};
use std::cell::{Cell, OnceCell};
use std::rc::Rc;

/// How many copies back a provenance chain is kept (`x = x.clone()` in a loop must not grow it
/// without end).
const MAX_CHAIN: usize = 4;

/// The provenance of one storage (see the module doc).
#[derive(Debug)]
pub(crate) struct Provenance {
    made: u32,
    /// 0: never written in place.
    written: Cell<u32>,
    copied: OnceCell<Rc<Snapshot>>,
}

/// A storage's provenance frozen at the moment it was copied.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    made: u32,
    written: u32,
    device: String,
    copied: Option<Rc<Snapshot>>,
}

impl Provenance {
    pub(crate) fn new(line: u32) -> Provenance {
        Provenance {
            made: line,
            written: Cell::new(0),
            copied: OnceCell::new(),
        }
    }

    pub(crate) fn note_write(&self, line: u32) {
        self.written.set(line);
    }

    /// This storage is a copy of a storage with provenance `src` on `src_device`.
    pub(crate) fn note_copy_of(&self, src: &Provenance, src_device: String) {
        let _ = self
            .copied
            .set(Rc::new(src.snapshot(src_device, MAX_CHAIN)));
    }

    fn snapshot(&self, device: String, depth: usize) -> Snapshot {
        Snapshot {
            made: self.made,
            written: self.written.get(),
            device,
            copied: if depth == 0 {
                None
            } else {
                self.copied.get().map(|s| Rc::new(s.truncated(depth - 1)))
            },
        }
    }

    /// The steps by which the values reached this storage, oldest first.
    pub(crate) fn steps(&self, device: &str) -> Vec<Step> {
        let mut chain = Vec::new();
        let mut next = self.copied.get().cloned();
        while let Some(s) = next {
            chain.push(s.clone());
            next = s.copied.clone();
        }
        let mut steps = Vec::new();
        for (i, s) in chain.iter().rev().enumerate() {
            steps.push(Step {
                line: s.made,
                kind: if i == 0 {
                    StepKind::Made
                } else {
                    StepKind::Copied
                },
                device: s.device.clone(),
            });
            if s.written != 0 {
                steps.push(Step {
                    line: s.written,
                    kind: StepKind::Written,
                    device: s.device.clone(),
                });
            }
        }
        steps.push(Step {
            line: self.made,
            kind: if chain.is_empty() {
                StepKind::Made
            } else {
                StepKind::Copied
            },
            device: device.to_string(),
        });
        if self.written.get() != 0 {
            steps.push(Step {
                line: self.written.get(),
                kind: StepKind::Written,
                device: device.to_string(),
            });
        }
        steps
    }
}

impl Snapshot {
    fn truncated(&self, depth: usize) -> Snapshot {
        Snapshot {
            made: self.made,
            written: self.written,
            device: self.device.clone(),
            copied: if depth == 0 {
                None
            } else {
                self.copied
                    .as_ref()
                    .map(|c| Rc::new(c.truncated(depth - 1)))
            },
        }
    }
}

/// One step of a tensor's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// 1-based script line (0: before the script ran, e.g. inside cudatutor's own setup).
    pub line: u32,
    pub kind: StepKind,
    /// The device the values were on after this step (`cpu`, `cuda:0`).
    pub device: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// The storage was allocated and filled by the op on this line.
    Made,
    /// A copy of the previous step's values (`.to()`, `.cuda()`, `.clone()`, a cast).
    Copied,
    /// Written into in place on this line.
    Written,
}

/// What the values of an offending element had to satisfy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bound {
    /// A class index: 0 <= value < classes (`ignore_index` excepted).
    Classes { classes: usize },
    /// A row of an embedding table or of an `index_select`: 0 <= value < rows.
    Rows { rows: usize },
    /// An index into dimension `dim` of size `size` (negative values count from the end for
    /// tensor indexing, which `gather` does not allow).
    DimSize {
        dim: usize,
        size: usize,
        negative_ok: bool,
    },
    /// A probability: 0 <= value <= 1.
    UnitInterval,
}

/// An element an op's check refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BadValue {
    /// The op as the timeline names it (`cross_entropy`, `embedding`, `getitem`, ...).
    pub op: String,
    /// PyTorch's name for the argument that held it (`target`, `indices`, `index`, `input`).
    pub role: String,
    /// Shape of that argument.
    pub shape: Vec<usize>,
    /// Coordinates of the first offending element.
    pub position: Vec<usize>,
    /// Its value as Python prints it (`10`, `-1`, `1.7`).
    pub value: String,
    pub bound: Bound,
    /// How many elements were out of bounds.
    pub count: usize,
    /// Where the argument's values came from, oldest first.
    pub history: Vec<Step>,
}

/// One operand of an op that found its tensors on different devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// PyTorch's argument name when the op has one (`mat1`, `target`), else `self`/`other`.
    pub role: String,
    pub device: String,
    pub shape: Vec<usize>,
    pub history: Vec<Step>,
}

/// What an op found wrong, with the line it ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Detail {
    BadValue {
        line: u32,
        #[serde(flatten)]
        value: BadValue,
    },
    DeviceClash {
        line: u32,
        op: String,
        operands: Vec<Operand>,
    },
}

impl Detail {
    /// The script line of the op that found it.
    pub fn line(&self) -> u32 {
        match self {
            Detail::BadValue { line, .. } | Detail::DeviceClash { line, .. } => *line,
        }
    }
}

/// Coordinates of element `flat` (row-major) of a tensor of `shape`.
pub(crate) fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut pos = vec![0; shape.len()];
    for (d, &size) in shape.iter().enumerate().rev() {
        if size == 0 {
            return vec![0; shape.len()];
        }
        pos[d] = flat % size;
        flat /= size;
    }
    pos
}

/// A value as Python prints it: integers without a point, floats with repr's shortest digits.
pub(crate) fn python_value(v: f64, integral: bool) -> String {
    if integral && v.is_finite() {
        return format!("{}", v as i64);
    }
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    let s = format!("{}", v as f32);
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_remembers_where_its_values_were_made_and_written() {
        let src = Provenance::new(3);
        src.note_write(5);
        let dst = Provenance::new(7);
        dst.note_copy_of(&src, "cpu".into());
        let steps = dst.steps("cuda:0");
        assert_eq!(
            steps,
            vec![
                Step {
                    line: 3,
                    kind: StepKind::Made,
                    device: "cpu".into()
                },
                Step {
                    line: 5,
                    kind: StepKind::Written,
                    device: "cpu".into()
                },
                Step {
                    line: 7,
                    kind: StepKind::Copied,
                    device: "cuda:0".into()
                },
            ]
        );
    }

    #[test]
    fn copies_of_copies_keep_a_bounded_chain() {
        let mut p = Provenance::new(1);
        for line in 2..50 {
            let next = Provenance::new(line);
            next.note_copy_of(&p, "cpu".into());
            p = next;
        }
        assert!(p.steps("cpu").len() <= MAX_CHAIN + 2);
        assert_eq!(p.steps("cpu").last().map(|s| s.line), Some(49));
    }

    #[test]
    fn positions_and_values_read_as_python_prints_them() {
        assert_eq!(unravel(5, &[2, 3]), vec![1, 2]);
        assert_eq!(unravel(0, &[]), Vec::<usize>::new());
        assert_eq!(python_value(10.0, true), "10");
        assert_eq!(python_value(-1.0, true), "-1");
        assert_eq!(python_value(1.7000000476837158, false), "1.7");
        assert_eq!(python_value(2.0, false), "2.0");
    }
}

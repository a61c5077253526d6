//! What the provenance record (engine::provenance) learns from tensors: a tensor's history,
//! and the offending values and device clashes an op's check found. These read tensors, so
//! they live with the tensor front half; provenance.rs itself knows nothing of tensors.

use super::Tensor;
use crate::engine::provenance::{self, BadValue, Bound, Detail, Step, python_value, unravel};
use crate::engine::runtime::Runtime;

impl Tensor {
    /// Where this tensor's values came from, oldest step first.
    pub(crate) fn history(&self) -> Vec<Step> {
        self.storage.provenance.steps(&self.device().to_string())
    }
}

impl Runtime {
    /// An op's check refused the element of `t` at `position`, PyTorch's argument `role`:
    /// remember it, with the tensor's history, before the op raises or launches.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn note_bad_value(
        &self,
        op: &str,
        role: &str,
        t: &Tensor,
        position: Vec<usize>,
        value: f64,
        bound: Bound,
        count: usize,
    ) {
        let integral = !t.dtype().is_floating_point();
        self.note_detail(Detail::BadValue {
            line: self.line(),
            value: BadValue {
                op: op.to_string(),
                role: role.to_string(),
                shape: t.shape().to_vec(),
                position,
                value: python_value(value, integral),
                bound,
                count,
                history: t.history(),
            },
        });
    }

    /// `binary_cross_entropy` needs probabilities: the first element of `input` (then of
    /// `target`) outside [0, 1], if any, is remembered as the op's offending value.
    pub(crate) fn note_outside_unit_interval(&self, op: &str, input: &Tensor, target: &Tensor) {
        let outside = |v: &f64| !(0.0..=1.0).contains(v);
        for (t, role) in [(input, "input"), (target, "target")] {
            if t.is_phantom() {
                continue;
            }
            let Ok(vals) = t.values_or_zeros() else {
                continue;
            };
            if let Some(i) = vals.iter().position(outside) {
                let count = vals.iter().filter(|v| outside(v)).count();
                let position = unravel(i, t.shape());
                self.note_bad_value(op, role, t, position, vals[i], Bound::UnitInterval, count);
                return;
            }
        }
    }

    /// An op found its operands (PyTorch's argument names) on different devices.
    pub(crate) fn note_device_clash(&self, op: &str, operands: &[(&Tensor, &str)]) {
        self.note_detail(Detail::DeviceClash {
            line: self.line(),
            op: op.to_string(),
            operands: operands
                .iter()
                .map(|(t, role)| provenance::Operand {
                    role: role.to_string(),
                    device: t.device().to_string(),
                    shape: t.shape().to_vec(),
                    history: t.history(),
                })
                .collect(),
        });
    }
}

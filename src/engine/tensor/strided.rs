//! `as_strided`: a view with sizes, strides and a storage offset given outright, checked
//! against the storage as ATen's `setStrided` / `checkInBoundsForStorage` check them.

use super::{CommaSeparated, Tensor};
use crate::engine::error::{EngineError, Result};

fn list(v: &[i64]) -> String {
    format!("[{}]", v.comma_separated())
}

impl Tensor {
    /// `t.as_strided(size, stride, storage_offset)`; without an offset the view keeps this
    /// tensor's own offset, as PyTorch's does.
    pub(crate) fn as_strided(
        &self,
        size: &[i64],
        stride: &[i64],
        offset: Option<i64>,
    ) -> Result<Tensor> {
        if size.len() != stride.len() {
            return Err(EngineError::runtime(
                "mismatch in length of strides and shape",
            ));
        }
        if stride.iter().any(|&s| s < 0) {
            return Err(EngineError::runtime(format!(
                "as_strided: Negative strides are not supported at the moment, got strides: {}",
                list(stride)
            )));
        }
        let offset = offset.unwrap_or(self.layout.offset as i64);
        if offset < 0 {
            return Err(EngineError::runtime(format!(
                "Tensor: invalid storage offset {offset}"
            )));
        }
        if size.iter().any(|&s| s < 0) {
            return Err(EngineError::runtime(format!(
                "Storage size calculation overflowed with sizes={} and strides={}",
                list(size),
                list(stride)
            )));
        }
        // computeStorageNbytes: nothing is read when a size is 0
        let overflow = || {
            EngineError::runtime(format!(
                "Storage size calculation overflowed with sizes={} and strides={}",
                list(size),
                list(stride)
            ))
        };
        let mut span: u64 = 1;
        if size.iter().all(|&s| s > 0) {
            for (&s, &st) in size.iter().zip(stride) {
                let add = (st as u64).checked_mul(s as u64 - 1).ok_or_else(overflow)?;
                span = span.checked_add(add).ok_or_else(overflow)?;
            }
        } else {
            span = 0;
        }
        let item = self.element_size() as u64;
        let need = (offset as u64)
            .checked_add(span)
            .and_then(|n| n.checked_mul(item))
            .ok_or_else(overflow)?;
        let have = self.storage.numel as u64 * item;
        if span > 0 && need > have {
            return Err(EngineError::runtime(format!(
                "setStorage: sizes {}, strides {}, storage offset {offset}, and itemsize {item} requiring a storage size of {need} are out of bounds for storage of size {have}",
                list(size),
                list(stride)
            )));
        }
        let shape: Vec<usize> = size.iter().map(|&s| s as usize).collect();
        let strides: Vec<usize> = stride.iter().map(|&s| s as usize).collect();
        super::checked_numel(&shape)?;
        Ok(self.view_named("AsStridedBackward0", shape, strides, offset as usize))
    }
}

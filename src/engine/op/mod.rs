//! The ops' definitions, beneath both halves of every op: the front halves (`tensor/`) and
//! the devices' back halves (`backend/`, `host/`, `cuda/`) import them, never each other's.
//! The elementwise families are tables with one entry per op (`unary.rs`, `binary.rs`: name,
//! autograd node, dtypes, CUDA kernel, host scalar kernels); `args.rs` holds the kernels'
//! operand shapes and the other op families.

mod args;
mod binary;
mod grad;
mod unary;

pub use args::{Affine, Arg, Checked, MatmulDims, NllLoss, Operands, ReduceOp, TernaryOp};
pub use binary::BinaryOp;
pub(crate) use grad::{GradAlgebra, Val};
pub use unary::UnaryOp;

use crate::engine::error::{EngineError, Result};

/// `reduction=` of the losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => Err(EngineError::value(format!(
                "{s} is not a valid value for reduction"
            ))),
        }
    }
}

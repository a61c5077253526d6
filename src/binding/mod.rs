//! What the torch and numpy bindings share, beneath both: the tensor handle (`PyTensor`) and
//! dtype objects (`PyDType`) each side recognises, engine errors as Python exceptions, engine
//! scalars as Python values, and native warnings; and what the two modules declare alike, once:
//! the dtype names each exports, `set_printoptions`' counts, the reductions that are both a
//! method and a function, the row-major index walk. torch builds on numpy (`torch.from_numpy`,
//! `t.numpy()`); numpy reaches torch's objects only through this module.

pub(crate) mod async_copy;
mod dtype;
mod errors;
mod messages;
pub(crate) mod print_counts;
pub(crate) mod reductions;
pub(crate) mod row_major;
mod tensor;
mod values;
pub(crate) mod warnings;

pub use dtype::PyDType;
pub(crate) use dtype::{Library, dtype_names};
pub(crate) use errors::exc_type_of;
pub use errors::py_err;
pub use tensor::PyTensor;
pub(crate) use tensor::tensor_of;
pub(crate) use values::{nested, scalar_value};
pub(crate) use warnings::{warn, warn_as, warn_at};

//! PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp and
//! invalid_arguments.cpp), driven by PyTorch's own signature strings.
//!
//! `table::parser(Namespace::Torch, "softmax")` gives the overloads of `torch.softmax` as
//! PyTorch declares them; `Parser::parse(args, kwargs)` binds a call to the first overload
//! that accepts it (PyTorch's order and type rules) or raises PyTorch's TypeError, word for
//! word; the returned [`Parsed`] reads each argument by type (`tensor(0)`, `int_or("dim",
//! -1)`, `opt_dtype("dtype")`, `int_list("dim")`).

#[cfg(test)]
mod blocks;
mod check;
mod invalid;
mod parse;
mod parsed;
mod python_body;
mod signature;
mod table;

pub use check::tp_name;
pub use parse::Parser;
pub use parsed::{ArgKey, Parsed};
pub(crate) use python_body::{Body, parsed_by_signature};
pub use signature::{Param, ParamType, Signature};
pub use table::{Namespace, declares, names, parser};

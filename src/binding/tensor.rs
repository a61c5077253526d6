//! The Python object of an engine tensor: what `torch.Tensor` values are, and what numpy
//! recognises when a tensor reaches it (src/torch/tensor.rs gives it its methods).

use crate::engine::{Runtime, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// A tensor handle as Python sees it (one Python object; views are new objects).
pub struct PyTensor {
    pub t: RefCell<Tensor>,
    pub rt: Rc<Runtime>,
    /// `nn.Parameter`: prints as "Parameter containing:" and is a Tensor subclass.
    pub param: bool,
}

impl PyTensor {
    pub fn new(rt: Rc<Runtime>, t: Tensor) -> PyTensor {
        PyTensor {
            t: RefCell::new(t),
            rt,
            param: false,
        }
    }
    pub fn tensor(&self) -> Tensor {
        // a non-blocking copy to the CPU shows its values only once they have landed
        super::async_copy::settle(self);
        self.t.borrow().clone()
    }
}

/// The engine tensor of a `torch.Tensor` value; None for any other value.
pub(crate) fn tensor_of(v: &crate::script::Value) -> Option<Tensor> {
    v.downcast::<PyTensor>().map(|p| p.tensor())
}

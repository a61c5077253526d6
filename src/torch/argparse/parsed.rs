//! `PythonArgs`: the bound arguments of one call, read by type. Absent arguments read as the
//! signature's default; reading never unwraps.

use super::check::tp_name;
use super::signature::{Param, ParamType, Signature};
use crate::engine::Tensor;
use crate::engine::dtype::Scalar;
use crate::script::{ExcType, PyException, PyResult, Value};
use crate::torch::PyTensor;

/// A parameter named by position in the matched overload or by name.
pub trait ArgKey {
    fn index(&self, sig: &Signature) -> Option<usize>;
    /// `input` / `self`: a method's receiver, which its signature does not list.
    fn is_receiver(&self) -> bool {
        false
    }
}

impl ArgKey for usize {
    fn index(&self, sig: &Signature) -> Option<usize> {
        (*self < sig.params.len()).then_some(*self)
    }
}

impl ArgKey for &str {
    fn index(&self, sig: &Signature) -> Option<usize> {
        sig.position(self)
    }
    fn is_receiver(&self) -> bool {
        matches!(*self, "input" | "self")
    }
}

pub struct Parsed<'a> {
    pub signature: &'a Signature,
    /// Which overload matched, in the parser's order (deprecated ones last).
    pub overload: usize,
    values: Vec<Option<Value>>,
    /// The tensor a method was called on: what `input` names in the function's signature.
    receiver: Option<Value>,
}

fn type_error(msg: String) -> PyException {
    PyException::new(ExcType::TypeError, msg)
}

/// `atol` of a default as the signature spells it; the reduction enum by name.
fn default_int(p: &Param) -> Option<i64> {
    let d = p.default.as_deref()?;
    match d {
        "None" => None,
        "at::Reduction::None" => Some(0),
        "at::Reduction::Mean" => Some(1),
        "at::Reduction::Sum" => Some(2),
        _ => d.parse().ok(),
    }
}

fn default_int_list(p: &Param) -> Option<Vec<i64>> {
    let d = p.default.as_deref()?;
    if d == "None" {
        return None;
    }
    if let Some(inner) = d.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        if inner.is_empty() {
            return Some(vec![]);
        }
        return inner.split(',').map(|x| x.trim().parse().ok()).collect();
    }
    let v: i64 = d.parse().ok()?;
    Some(vec![v; p.size])
}

/// `THPUtils_unpackLong` / `unpackIndex` for a value the parser accepted as an int.
fn unpack_long(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        _ => {
            if let Some(s) = v.downcast::<crate::numpy::NpScalar>() {
                return Some(s.v as i64);
            }
            let t = v.downcast::<PyTensor>()?.t.borrow().clone();
            if t.numel() != 1 {
                return None;
            }
            Some(match *t.scalars().ok()?.first()? {
                Scalar::Bool(b) => b as i64,
                Scalar::Int(i) => i,
                Scalar::Float(f) => f as i64,
            })
        }
    }
}

impl<'a> Parsed<'a> {
    pub fn new(signature: &'a Signature, overload: usize, values: Vec<Option<Value>>) -> Self {
        Parsed {
            signature,
            overload,
            values,
            receiver: None,
        }
    }

    /// A method call: `input` (and `self`) read the receiver.
    pub(crate) fn with_receiver(mut self, this: Value) -> Self {
        self.receiver = Some(this);
        self
    }

    /// Whether the matched overload declares this parameter.
    pub(crate) fn declares(&self, name: &str) -> bool {
        self.signature.position(name).is_some()
    }

    fn slot(&self, key: impl ArgKey) -> Option<(usize, &Param)> {
        let i = key.index(self.signature)?;
        Some((i, &self.signature.params[i]))
    }

    /// The value as passed (None when absent or passed as None).
    pub fn value(&self, key: impl ArgKey) -> Option<&Value> {
        match key.index(self.signature) {
            Some(i) => self.values.get(i)?.as_ref(),
            None if key.is_receiver() => self.receiver.as_ref(),
            None => None,
        }
    }

    pub fn has(&self, key: impl ArgKey) -> bool {
        self.value(key).is_some()
    }

    fn overflow(&self, p: &Param) -> PyException {
        PyException::new(
            ExcType::RuntimeError,
            format!("Overflow when unpacking long (argument '{}')", p.name),
        )
    }

    /// A Tensor argument (`PythonArgs::tensor`).
    pub fn tensor(&self, key: impl ArgKey) -> PyResult<Tensor> {
        let i = key.index(self.signature).unwrap_or(0);
        match self.value(key) {
            Some(v) => match v.downcast::<PyTensor>() {
                Some(t) => Ok(t.t.borrow().clone()),
                None => Err(type_error(format!(
                    "expected Tensor as argument {i}, but got {}",
                    tp_name(v)
                ))),
            },
            None => Err(type_error(format!(
                "expected Tensor as argument {i}, but got NoneType"
            ))),
        }
    }

    pub(crate) fn opt_int(&self, key: impl ArgKey) -> PyResult<Option<i64>> {
        let Some((i, p)) = self.slot(key) else {
            return Ok(None);
        };
        match self.values.get(i).and_then(|v| v.as_ref()) {
            Some(v) => unpack_long(v).map(Some).ok_or_else(|| self.overflow(p)),
            None => Ok(default_int(p)),
        }
    }

    /// An int list (`PythonArgs::intlist`): a lone int stands for `[int] * N` where the
    /// signature gives a size; each element must be an index.
    pub(crate) fn opt_int_list(&self, key: impl ArgKey) -> PyResult<Option<Vec<i64>>> {
        let Some((i, p)) = self.slot(key) else {
            return Ok(None);
        };
        let Some(v) = self.values.get(i).and_then(|v| v.as_ref()) else {
            return Ok(default_int_list(p));
        };
        let items = match v {
            Value::Tuple(_) | Value::List(_) => v.as_vec().unwrap_or_default(),
            _ => match v.downcast::<crate::torch::objects::PySize>() {
                Some(s) => s.0.iter().map(|&d| Value::Int(d as i64)).collect(),
                None => {
                    let x = unpack_long(v).ok_or_else(|| self.overflow(p))?;
                    return Ok(Some(vec![x; p.size.max(1)]));
                }
            },
        };
        let mut out = Vec::with_capacity(items.len());
        for (idx, item) in items.iter().enumerate() {
            let ok = super::check::is_index(item) || item.downcast::<PyTensor>().is_some();
            match unpack_long(item).filter(|_| ok) {
                Some(x) => out.push(x),
                None => {
                    return Err(type_error(format!(
                        "{}(): argument '{}' failed to unpack the object at pos {} with error \"type must be tuple of ints,but got {}\"",
                        self.signature.name,
                        p.name,
                        idx + 1,
                        tp_name(item)
                    )));
                }
            }
        }
        Ok(Some(out))
    }

    /// Reads every argument the way PyTorch's generated bindings do before dispatching, so
    /// the errors PyTorch raises while unpacking (a bad element of an int list) surface.
    pub fn unpack_all(&self) -> PyResult<()> {
        for (i, p) in self.signature.params.iter().enumerate() {
            match p.ty {
                ParamType::IntList | ParamType::SymIntList => {
                    self.opt_int_list(i)?;
                }
                ParamType::Int64 | ParamType::SymInt => {
                    self.opt_int(i)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

//! Struct sequences: CPython's (`sys.version_info`, `sys.float_info`) and PyTorch's
//! (`torch.return_types.max`, what `max(dim)`, `sort` and `topk` return). A tuple subclass whose
//! items also have names: they index, unpack, compare and hash as the tuple of their items and
//! print as `sys.version_info(major=3, minor=11, ...)`, PyTorch's one field a line.

use crate::script::errors::PyResult;
use crate::script::native::{CmpOp, NativeCx, NativeObject};
use crate::script::value::{BuiltinType, Value};

pub(crate) struct StructSeq {
    /// `type(x).__name__` (`version_info`, `max`).
    type_name: String,
    /// The module of its class (`sys`, `torch.return_types`); the repr starts with both.
    module: &'static str,
    fields: Vec<(&'static str, Value)>,
}

impl StructSeq {
    /// One of the `sys` module's (`sys.version_info`).
    pub(crate) fn sys(type_name: &'static str, fields: Vec<(&'static str, Value)>) -> Self {
        StructSeq {
            type_name: type_name.to_string(),
            module: "sys",
            fields,
        }
    }
    /// `torch.return_types.NAME`.
    pub(crate) fn torch_return_type(type_name: &str, fields: Vec<(&'static str, Value)>) -> Self {
        StructSeq {
            type_name: type_name.to_string(),
            module: "torch.return_types",
            fields,
        }
    }
    fn tuple(&self) -> Value {
        Value::tuple(self.fields.iter().map(|(_, v)| v.clone()).collect())
    }
}

impl NativeObject for StructSeq {
    fn type_name(&self) -> &str {
        &self.type_name
    }
    fn builtin_base(&self) -> Option<(&'static str, BuiltinType)> {
        Some((self.module, BuiltinType::Tuple))
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        it.getitem(&self.tuple(), key).map(Some)
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(Some(self.fields.len()))
    }
    fn iter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        it.get_iter(&self.tuple()).map(Some)
    }
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        let other = match other {
            Value::Native(n) => match n.as_any().downcast_ref::<StructSeq>() {
                Some(s) => s.tuple(),
                None => return Ok(None),
            },
            Value::Tuple(_) => other.clone(),
            _ => return Ok(None),
        };
        cx.it.compare(op, &self.tuple(), &other).map(Some)
    }
    fn hash(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<i64>> {
        let k = it.hkey(&self.tuple())?;
        Ok(Some(k.py_hash()))
    }
    fn contains(&self, NativeCx { it, .. }: NativeCx<'_>, item: &Value) -> PyResult<Option<bool>> {
        // the tuple's own `in`: an item that is the one looked for matches without `==`
        it.contains(&self.tuple(), item).map(Some)
    }
    fn repr(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        // PyTorch's structseq repr starts each field on a line of its own (tensors span lines)
        let (open, separator) = if self.module == "sys" {
            ("", ", ")
        } else {
            ("\n", ",\n")
        };
        let mut s = format!("{}.{}({open}", self.module, self.type_name);
        for (i, (n, v)) in self.fields.iter().enumerate() {
            if i > 0 {
                s.push_str(separator);
            }
            s.push_str(n);
            s.push('=');
            s.push_str(&it.repr(v)?);
        }
        s.push(')');
        Ok(Some(s))
    }
    fn dir(&self) -> Vec<String> {
        let mut v: Vec<String> = self.fields.iter().map(|(n, _)| n.to_string()).collect();
        v.extend(["count", "index"].map(String::from));
        v
    }
}

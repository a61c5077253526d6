//! `_collections`: what collections.py cannot write in Python. Its OrderedDict keeps its items
//! in a plain dict (`self._d`), and CPython's OrderedDict views print as `odict_keys([...])`
//! (`print(model.state_dict().keys())`, a line every PyTorch tutorial has), not `dict_keys`;
//! and `self._d` is the instance's own dict storage (`dict_items_of`).

use crate::script::builtins::methods::ordered_dict_view;
use crate::script::errors::{PyException, PyResult};
use crate::script::interp::Interpreter;
use crate::script::value::{DictIterKind, Module, Value};

pub(crate) fn module(_it: &mut Interpreter) -> PyResult<Value> {
    let m = Module::new("_collections");
    for (name, kind) in [
        ("odict_keys", DictIterKind::Keys),
        ("odict_values", DictIterKind::Values),
        ("odict_items", DictIterKind::Items),
    ] {
        m.add_fn(name, move |_it, args| {
            let a = args.exact(name, 1)?;
            match &a[0] {
                Value::Dict(d) => Ok(ordered_dict_view(d, kind)),
                other => Err(PyException::type_error(format!(
                    "{name}() argument must be dict, not {}",
                    other.type_name()
                ))),
            }
        });
    }
    // The dict holding a dict subclass instance's items: the dict-like classes keep it as
    // `self._d`, so what they store is what `dict.items(od)`, `dict(od)` and native code see.
    m.add_fn("dict_items_of", |_it, args| {
        let a = args.exact("dict_items_of", 1)?;
        match crate::script::interp::builtin_subclass::base_of(&a[0]) {
            Some(d @ Value::Dict(_)) => Ok(d),
            _ => Err(PyException::type_error(format!(
                "dict_items_of() argument must be a dict subclass instance, not {}",
                a[0].type_name()
            ))),
        }
    });
    Ok(m.into_value())
}

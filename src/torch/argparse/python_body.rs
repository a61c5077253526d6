//! Functions PyTorch binds in C++ that cudatutor writes in Python (torch._extra's `logit`,
//! `amax`, `tile`, ...). PyTorch parses every call of such a function against its signature
//! table before the op runs, so a wrong argument is PyTorch's TypeError, not whatever the
//! Python body happens to raise. [`parsed_by_signature`] gives the body that front: the call is
//! parsed with the same [`Parser`] the native bindings use, then the body runs with the
//! arguments as the matched overload names them.

use super::Namespace;
use super::parse::Parser;
use super::signature::Signature;
use crate::script::{Args, Interpreter, Module, PyResult, Value};
use std::rc::Rc;

/// The call as the body receives it: the positional arguments as passed, then every keyword
/// under the name the matched overload gives it (`axis=` is `dim=`, `x=` is `input=`; a None
/// the parser takes for absent is left out), the
/// leading ones moved to their positions (`logit(input=t)` calls the body as `logit(t)`), so
/// the body's own parameter names need only match PyTorch's for its later keywords.
fn as_signature_names(sig: &Signature, args: Args) -> Args {
    let Args {
        mut positional,
        keywords,
    } = args;
    let mut named: Vec<(String, Value)> = keywords
        .into_iter()
        .filter_map(|(k, v)| {
            let param = sig
                .params
                .iter()
                .find(|p| p.name == k || p.numpy_names().contains(&k.as_str()));
            match param {
                // the parser reads `nan=None` of a `double? nan=None` as not given: the body's
                // default is PyTorch's
                Some(p) if p.allow_none && v.is_none() => None,
                Some(p) => Some((p.name.clone(), v)),
                None => Some((k, v)),
            }
        })
        .collect();
    for p in sig.params.iter().skip(positional.len()) {
        if p.keyword_only {
            break;
        }
        let Some(at) = named.iter().position(|(k, _)| *k == p.name) else {
            break;
        };
        positional.push(named.remove(at).1);
    }
    Args::with_keywords(positional, named)
}

/// The Python function behind the parser.
pub(crate) enum Body {
    /// The function itself.
    Ready(Value),
    /// An attribute of a module, read at each call: a prelude's deferred definition, which
    /// is compiled only when it is first called (reading all 99 at import cost ~15 M
    /// instructions at the first use of torch._extra).
    Attribute(Rc<Module>, Rc<str>),
}

/// `body` behind the parser of `ns.name`: each call is parsed first (PyTorch's TypeError when
/// it fits no overload), then `body` runs with the parsed call. The parser is built at the
/// first call (building the 99 of torch._extra at its import cost ~4 M instructions).
pub(crate) fn parsed_by_signature(ns: Namespace, name: &str, body: Body) -> Value {
    let owned: Rc<str> = name.into();
    Value::native_fn(
        name,
        move |it: &mut Interpreter, args: Args| -> PyResult<Value> {
            let parser: &'static Parser = super::parser(ns, &owned).ok_or_else(|| {
                crate::script::PyException::new(
                    crate::script::ExcType::KeyError,
                    format!("torch.{owned} has no PyTorch signature"),
                )
            })?;
            let parsed = parser.parse(&args.positional, &args.keywords)?;
            // the errors PyTorch raises while unpacking (an int list's bad element) come first too
            parsed.unpack_all()?;
            let call = as_signature_names(parsed.signature, args);
            let f = match &body {
                Body::Ready(f) => f.clone(),
                Body::Attribute(m, attr) => it.getattr(&Value::Module(m.clone()), attr)?,
            };
            it.call(&f, call)
        },
    )
}

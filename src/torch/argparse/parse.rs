//! `FunctionSignature::parse` and `PythonArgParser::raw_parse` / `print_error`: binding one
//! call against a parser's overloads, in PyTorch's order, with PyTorch's messages.

use super::check::{check, tp_name};
use super::invalid::format_invalid_args;
use super::parsed::Parsed;
use super::signature::Signature;
use crate::script::{ExcType, PyException, PyResult, Value};

fn type_error(msg: String) -> PyException {
    PyException::new(ExcType::TypeError, msg)
}

/// `extra_args`: too many positional arguments.
fn extra_args(sig: &Signature, nargs: usize) -> PyException {
    if sig.min_args != sig.max_pos_args {
        return type_error(format!(
            "{}() takes from {} to {} positional arguments but {nargs} were given",
            sig.name, sig.min_args, sig.max_pos_args
        ));
    }
    type_error(format!(
        "{}() takes {} positional argument{} but {nargs} {} given",
        sig.name,
        sig.max_pos_args,
        if sig.max_pos_args == 1 { "" } else { "s" },
        if nargs == 1 { "was" } else { "were" }
    ))
}

/// `missing_args`, with PyTorch's inverted plural ("missing 1 required positional arguments").
fn missing_args(sig: &Signature, idx: usize) -> PyException {
    let names: Vec<String> = sig.params[idx..]
        .iter()
        .filter(|p| !p.optional)
        .map(|p| format!("\"{}\"", p.name))
        .collect();
    let n = names.len();
    type_error(format!(
        "{}() missing {n} required positional argument{}: {}",
        sig.name,
        if n == 1 { "s" } else { "" },
        names.join(", ")
    ))
}

/// `extra_kwargs`: the first keyword that is unknown or repeats a positional argument.
fn extra_kwargs(sig: &Signature, kwargs: &[(String, Value)], nargs: usize) -> PyException {
    for (k, _) in kwargs {
        match sig.position(k) {
            None => {
                return type_error(format!(
                    "{}() got an unexpected keyword argument '{k}'",
                    sig.name
                ));
            }
            Some(i) if i < nargs => {
                return type_error(format!(
                    "{}() got multiple values for argument '{k}'",
                    sig.name
                ));
            }
            Some(_) => {}
        }
    }
    type_error("invalid keyword arguments".into())
}

fn lookup<'a>(kwargs: &'a [(String, Value)], names: &[&str]) -> Option<&'a Value> {
    names
        .iter()
        .find_map(|n| kwargs.iter().find(|(k, _)| k == n).map(|(_, v)| v))
}

/// One overload against the call. `Ok(None)`: no match (only when `raise` is false).
pub(super) fn parse_signature(
    sig: &Signature,
    args: &[Value],
    kwargs: &[(String, Value)],
    raise: bool,
) -> PyResult<Option<Vec<Option<Value>>>> {
    let nargs = args.len();
    let mut remaining = kwargs.len();
    // a lone positional int list takes var-args: `view(2, 3)` is `view((2, 3))`
    let allow_varargs = sig.max_pos_args == 1 && sig.params[0].ty.is_int_list();
    if nargs > sig.max_pos_args && !allow_varargs {
        return if raise {
            Err(extra_args(sig, nargs))
        } else {
            Ok(None)
        };
    }
    let mut dst: Vec<Option<Value>> = vec![None; sig.params.len()];
    let mut arg_pos = 0;
    for (i, param) in sig.params.iter().enumerate() {
        let mut obj: Option<&Value> = None;
        let mut is_kwd = false;
        if arg_pos < nargs {
            if param.keyword_only {
                return if raise {
                    Err(extra_args(sig, nargs))
                } else {
                    Ok(None)
                };
            }
            obj = Some(&args[arg_pos]);
        } else if !kwargs.is_empty() {
            let mut names = vec![param.name.as_str()];
            names.extend_from_slice(param.numpy_names());
            obj = lookup(kwargs, &names);
            is_kwd = true;
        }
        let mut failed: Option<usize> = None;
        let varargs_eligible = allow_varargs && arg_pos == 0 && !is_kwd;
        match obj {
            None if param.optional => {}
            Some(Value::None) if param.allow_none => {}
            None => {
                return if raise {
                    Err(missing_args(sig, i))
                } else {
                    Ok(None)
                };
            }
            Some(v) => {
                if check(param, v, i, &mut failed)? {
                    dst[i] = Some(v.clone());
                } else if varargs_eligible
                    && check(param, &Value::tuple(args.to_vec()), i, &mut failed)?
                {
                    // every positional argument is this parameter: permute(1, 2, 3)
                    dst[i] = Some(Value::tuple(args.to_vec()));
                    arg_pos = nargs;
                    continue;
                } else if raise {
                    let tn = param.ty.type_name();
                    if is_kwd {
                        return Err(type_error(format!(
                            "{}(): argument '{}' must be {tn}, not {}",
                            sig.name,
                            param.name,
                            tp_name(v)
                        )));
                    }
                    if let Some(idx) = failed {
                        let seq = match v {
                            Value::Tuple(_) | Value::List(_) => v.clone(),
                            _ => Value::tuple(args.to_vec()),
                        };
                        let item = seq.as_vec().and_then(|s| s.get(idx).cloned());
                        return Err(type_error(format!(
                            "{}(): argument '{}' (position {}) must be {tn}, but found element of type {} at pos {idx}",
                            sig.name,
                            param.name,
                            arg_pos + 1,
                            item.as_ref().map(tp_name).unwrap_or_default()
                        )));
                    }
                    return Err(type_error(format!(
                        "{}(): argument '{}' (position {}) must be {tn}, not {}",
                        sig.name,
                        param.name,
                        arg_pos + 1,
                        tp_name(v)
                    )));
                } else {
                    return Ok(None);
                }
            }
        }
        if !is_kwd {
            arg_pos += 1;
        } else if obj.is_some() {
            remaining -= 1;
        }
    }
    if remaining > 0 {
        return if raise {
            Err(extra_kwargs(sig, kwargs, nargs))
        } else {
            Ok(None)
        };
    }
    Ok(Some(dst))
}

/// A parser: one callable's overloads, deprecated ones last (as PythonArgParser sorts them).
#[derive(Debug)]
pub struct Parser {
    pub signatures: Vec<Signature>,
    /// `Tensor.` for methods: CPython names a METH_NOARGS method by its qualified name.
    pub owner: &'static str,
}

impl Parser {
    pub fn new(mut signatures: Vec<Signature>, owner: &'static str) -> Parser {
        signatures.sort_by_key(|s| s.deprecated); // stable
        Parser { signatures, owner }
    }

    pub fn name(&self) -> &str {
        self.signatures
            .first()
            .map(|s| s.name.as_str())
            .unwrap_or("")
    }

    /// `PythonArgParser::raw_parse`.
    pub fn parse(&self, args: &[Value], kwargs: &[(String, Value)]) -> PyResult<Parsed<'_>> {
        if let [sig] = self.signatures.as_slice() {
            if sig.noargs {
                return self.parse_noargs(sig, args, kwargs);
            }
            let values = parse_signature(sig, args, kwargs, true)?.unwrap_or_default();
            return Ok(Parsed::new(sig, 0, values));
        }
        for (i, sig) in self.signatures.iter().enumerate() {
            if let Some(values) = parse_signature(sig, args, kwargs, false)? {
                return Ok(Parsed::new(sig, i, values));
            }
        }
        Err(self.print_error(args, kwargs))
    }

    /// CPython's METH_NOARGS checks (the keyword check first).
    fn parse_noargs<'a>(
        &self,
        sig: &'a Signature,
        args: &[Value],
        kwargs: &[(String, Value)],
    ) -> PyResult<Parsed<'a>> {
        if !kwargs.is_empty() {
            return Err(type_error(format!(
                "{}{}() takes no keyword arguments",
                self.owner, sig.name
            )));
        }
        if !args.is_empty() {
            return Err(type_error(format!(
                "{}{}() takes no arguments ({} given)",
                self.owner,
                sig.name,
                args.len()
            )));
        }
        Ok(Parsed::new(sig, 0, vec![]))
    }

    /// `PythonArgParser::print_error`: one plausible overload explains itself; otherwise every
    /// visible overload is listed.
    fn print_error(&self, args: &[Value], kwargs: &[(String, Value)]) -> PyException {
        let n = args.len() + kwargs.len();
        let plausible: Vec<&Signature> = self
            .signatures
            .iter()
            .filter(|s| n >= s.min_args && n <= s.max_args && !s.hidden)
            .collect();
        if let [sig] = plausible.as_slice()
            && let Err(e) = parse_signature(sig, args, kwargs, true)
        {
            return e;
        }
        let options: Vec<String> = self
            .signatures
            .iter()
            .filter(|s| !s.hidden)
            .map(|s| s.to_display())
            .collect();
        type_error(format_invalid_args(
            &format!("{}()", self.name()),
            args,
            kwargs,
            &options,
        ))
    }
}

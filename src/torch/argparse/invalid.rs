//! invalid_arguments.cpp's `format_invalid_args`: the "received an invalid combination of
//! arguments" message, reproduced with its quirks (it re-parses the listed overload text, so
//! a default's value is taken for a parameter name; a call with only keywords keeps a
//! trailing ", "). Keywords are listed in call order; PyTorch lists them in its
//! `std::unordered_map`'s order, which is the same for one keyword.

use super::check::{items_of, tp_name};
use crate::script::Value;

enum Matcher {
    Simple(String),
    Multi(&'static [&'static str]),
}

impl Matcher {
    fn build(type_name: &str) -> Matcher {
        match type_name {
            "float" => Matcher::Multi(&["float", "int", "long"]),
            "int" => Matcher::Multi(&["int", "long"]),
            _ => Matcher::Simple(type_name.to_string()),
        }
    }
    fn matches(&self, v: &Value) -> bool {
        let name = tp_name(v);
        match self {
            Matcher::Simple(s) => *s == name,
            Matcher::Multi(names) => names.contains(&name.as_str()),
        }
    }
}

struct Arg {
    name: String,
    ty: Matcher,
}

/// `_parseOption`: the listed text split back into (type, name) pairs.
fn parse_option(option: &str) -> Vec<Arg> {
    let inner = &option[1..option.len().saturating_sub(1).max(1)];
    inner
        .split(", ")
        .map(|arg| {
            let (ty, name) = match arg.rfind(' ') {
                Some(sp) => (&arg[..sp], &arg[sp + 1..]),
                None => (arg, arg),
            };
            Arg {
                name: name.to_string(),
                ty: Matcher::build(ty),
            }
        })
        .collect()
}

fn argcount_match(option: &[Arg], nargs: usize, nkw: usize) -> bool {
    option.len() == nargs + nkw
}

fn describe(v: &Value) -> String {
    let mut s = tp_name(v);
    if let Some(items) = items_of(v) {
        let tuple = matches!(v, Value::Tuple(_));
        s.push_str(" of ");
        s.push(if tuple { '(' } else { '[' });
        let names: Vec<String> = items.iter().map(tp_name).collect();
        s.push_str(&names.join(", "));
        if tuple {
            if items.len() == 1 {
                s.push(',');
            }
            s.push(')');
        } else {
            s.push(']');
        }
    }
    s
}

/// `_formattedArgDesc` as PyTorch prints it when stdout/stderr are not terminals.
fn formatted_arg_desc(option: &[Arg], args: &[Value], kwargs: &[(String, Value)]) -> String {
    let mut s = String::from("(");
    for i in 0..args.len() + kwargs.len() {
        let is_kwarg = i >= args.len();
        let param = option.get(i);
        let arg = if is_kwarg {
            let by_name = param.and_then(|p| kwargs.iter().find(|(k, _)| *k == p.name));
            match by_name.or(kwargs.get(i - args.len())) {
                Some((_, v)) => v,
                None => continue,
            }
        } else {
            &args[i]
        };
        let matching = param.is_some_and(|p| p.ty.matches(arg));
        let mark = if matching { "" } else { "!" };
        s.push_str(mark);
        if let (true, Some(p)) = (is_kwarg, param) {
            s.push_str(&p.name);
            s.push('=');
        }
        s.push_str(&describe(arg));
        s.push_str(mark);
        s.push_str(", ");
    }
    if !args.is_empty() {
        s.truncate(s.len() - 2);
    }
    s.push(')');
    s
}

/// `_argDesc`: the types of what was passed.
fn arg_desc(args: &[Value], kwargs: &[(String, Value)]) -> String {
    let mut s = String::from("(");
    for a in args {
        s.push_str(&tp_name(a));
        s.push_str(", ");
    }
    for (k, v) in kwargs {
        s.push_str(k);
        s.push('=');
        s.push_str(&tp_name(v));
        s.push_str(", ");
    }
    if !args.is_empty() {
        s.truncate(s.len() - 2);
    }
    s.push(')');
    s
}

/// `_tryMatchKwargs`: the keywords not among the option's trailing parameter names.
fn unmatched_kwargs(option: &[Arg], kwargs: &[(String, Value)]) -> Vec<String> {
    let start = option.len().saturating_sub(kwargs.len());
    kwargs
        .iter()
        .filter(|(k, _)| !option[start..].iter().any(|a| a.name == *k))
        .map(|(k, _)| k.clone())
        .collect()
}

pub(super) fn format_invalid_args(
    function: &str,
    args: &[Value],
    kwargs: &[(String, Value)],
    options: &[String],
) -> String {
    let mut msg = format!("{function} received an invalid combination of arguments - ");
    let has_kwargs = !kwargs.is_empty();
    if options.len() == 1 {
        let option = parse_option(&options[0]);
        let unmatched = if has_kwargs {
            unmatched_kwargs(&option, kwargs)
        } else {
            vec![]
        };
        if !unmatched.is_empty() {
            msg.push_str("got unrecognized keyword arguments: ");
            msg.push_str(&unmatched.join(", "));
        } else {
            msg.push_str("got ");
            if argcount_match(&option, args.len(), kwargs.len()) {
                msg.push_str(&formatted_arg_desc(&option, args, kwargs));
            } else {
                msg.push_str(&arg_desc(args, kwargs));
            }
            msg.push_str(", but expected ");
            msg.push_str(&options[0]);
        }
    } else {
        msg.push_str("got ");
        msg.push_str(&arg_desc(args, kwargs));
        msg.push_str(", but expected one of:\n");
        for option_str in options {
            let option = parse_option(option_str);
            msg.push_str(" * ");
            msg.push_str(option_str);
            msg.push('\n');
            if argcount_match(&option, args.len(), kwargs.len()) {
                let unmatched = if has_kwargs {
                    unmatched_kwargs(&option, kwargs)
                } else {
                    vec![]
                };
                if !unmatched.is_empty() {
                    msg.push_str(
                        "      didn't match because some of the keywords were incorrect: ",
                    );
                    msg.push_str(&unmatched.join(", "));
                } else {
                    msg.push_str(
                        "      didn't match because some of the arguments have invalid types: ",
                    );
                    msg.push_str(&formatted_arg_desc(&option, args, kwargs));
                }
                msg.push('\n');
            }
        }
    }
    msg
}

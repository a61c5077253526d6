//! Comparing values without running Python code: the same object (by identity, or equal
//! plain values), and `==` over plain values only. The checks' clean world
//! ([`super::check_env`]) and its restored containers ([`super::check_containers`]) both
//! decide with these what a learner's code changed.

use crate::script::{Dict, Value};
use std::cell::RefCell;

/// `live` still holds the same objects under the same names as `copy` (compared without
/// allocating: the checks compare around every call into the learner's code).
pub(super) fn unchanged(live: &RefCell<Dict>, copy: &Dict) -> bool {
    let now = live.borrow();
    now.len() == copy.len()
        && now
            .iter()
            .zip(copy.iter())
            .all(|((k1, v1), (k2, v2))| identical(k1, k2) && identical(v1, v2))
}

/// The same object: the same allocation, or equal plain values (ints, floats, None).
pub(super) fn identical(a: &Value, b: &Value) -> bool {
    match (a.ptr_id(), b.ptr_id()) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.type_name() == b.type_name() && plain_eq(a, b, 0),
        _ => false,
    }
}

/// The value of an int or float (not a bool: `True` is not a number of bytes).
pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Deeper than this, two values are not compared (and count as different).
pub(super) const MAX_DEPTH: usize = 64;

/// Python's `==` restricted to plain values (None, bool, int, float, str, and lists, tuples,
/// dicts and sets of them), evaluated here without calling any Python code: any other object,
/// a learner's class with its own `__eq__` included, is equal to nothing. A bool equals only a
/// bool; ints and floats compare by value.
pub(super) fn plain_eq(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| plain_eq(p, q, depth + 1))
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| plain_eq(p, q, depth + 1))
        }
        (Value::Dict(x), Value::Dict(y)) | (Value::Set(x), Value::Set(y)) => {
            same_entries(&x.borrow(), &y.borrow(), depth)
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// Two dicts (or sets) hold the same keys with the same values, in any order.
fn same_entries(x: &Dict, y: &Dict, depth: usize) -> bool {
    x.len() == y.len()
        && x.iter().all(|(k, v)| {
            y.iter()
                .any(|(k2, v2)| plain_eq(k, k2, depth + 1) && plain_eq(v, v2, depth + 1))
        })
}

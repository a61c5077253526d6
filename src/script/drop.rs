//! Freeing deeply nested data without deep recursion (CPython's "trashcan").
//!
//! Dropping `x` after `for _ in range(10**6): x = [x]` would recurse once per level through
//! `drop_in_place` and overflow the run thread's stack. The containers that can nest without
//! bound — lists and tuples ([`Seq`]) and dicts, sets and instance `__dict__`s
//! ([`super::value::Dict`]) — free their elements through [`drop_values`]: up to
//! [`DROP_NEST`] containers deep that is an ordinary drop; deeper, the elements are parked on
//! a per-thread list that the outermost drop empties in a loop. Cost per container drop: two
//! thread-local reads.

use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};

use super::value::Value;

/// Containers freed recursively before the rest is deferred to the outermost drop's loop.
pub(crate) const DROP_NEST: u32 = 64;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static LATER: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Drop `items` (the elements of a container being freed) with bounded recursion.
pub(crate) fn drop_values(items: impl IntoIterator<Item = Value>) {
    let depth = DEPTH.try_with(Cell::get).unwrap_or(0);
    if depth >= DROP_NEST {
        let parked = LATER.try_with(|l| {
            if let Ok(mut l) = l.try_borrow_mut() {
                l.extend(items.into_iter().filter(is_container));
                None
            } else {
                Some(items)
            }
        });
        match parked {
            Ok(None) => return,
            // Thread-local storage gone (thread exit): drop in place.
            Ok(Some(items)) => drop_in_place_now(items),
            Err(_) => {}
        }
        return;
    }
    let _ = DEPTH.try_with(|d| d.set(depth + 1));
    drop_in_place_now(items);
    if depth == 0 {
        // The outermost drop: free what deeper drops parked, each again with bounded depth.
        loop {
            let next = LATER
                .try_with(|l| l.try_borrow_mut().ok().and_then(|mut l| l.pop()))
                .ok()
                .flatten();
            match next {
                Some(v) => drop(v),
                None => break,
            }
        }
    }
    let _ = DEPTH.try_with(|d| d.set(depth));
}

fn drop_in_place_now(items: impl IntoIterator<Item = Value>) {
    for v in items {
        drop(v);
    }
}

/// Values whose drop can recurse (everything else is dropped on the spot when parked).
pub(crate) fn is_container(v: &Value) -> bool {
    !matches!(
        v,
        Value::None
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Str(_)
            | Value::Range(_)
            | Value::Ellipsis
            | Value::NotImplemented
    )
}

/// The elements of a list or tuple: a `Vec<Value>` (it derefs to one) whose drop is
/// [`drop_values`].
#[derive(Default)]
pub struct Seq(Vec<Value>);

impl Seq {
    pub fn new(v: Vec<Value>) -> Seq {
        Seq(v)
    }
}

impl Drop for Seq {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            drop_values(std::mem::take(&mut self.0));
        }
    }
}

impl Deref for Seq {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for Seq {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for Seq {
    fn from(v: Vec<Value>) -> Seq {
        Seq(v)
    }
}

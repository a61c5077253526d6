//! The containers a check reads through the modules it trusts: lists, dicts and sets (also
//! inside tuples) reachable from the namespaces [`super::check_env`] copies,
//! `torch._extra._FINFO` behind `torch.finfo`, `nn`'s tables of names. Putting a module's
//! namespace back does not undo `torch._extra._FINFO['float32'] = ...`: the name still
//! refers to the same dict, changed in place. So their contents are copied too, before the
//! learner's code runs, and put back in place (the same object, which the module's functions
//! hold) wherever the namespaces are.
//!
//! The walk is bounded (depth, count of containers and of their elements), so a module that
//! holds a huge table costs a bounded copy; what lies past the bounds is not restored, nor
//! are the attributes of objects a module holds (a module's state objects may change
//! legitimately; its tables and registries are containers).

use crate::script::drop::Seq;
use crate::script::{Dict, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

/// How far from a module's or class's namespace a container is still copied.
const MAX_DEPTH: usize = 6;
/// At most this many containers, and this many elements in all, are copied.
const MAX_CONTAINERS: usize = 20_000;
const MAX_ELEMENTS: usize = 1_000_000;

/// Copies of the contents of every container reachable from some namespaces.
#[derive(Default)]
pub(super) struct Containers {
    lists: Vec<(Rc<RefCell<Seq>>, Vec<Value>)>,
    dicts: Vec<(Rc<RefCell<Dict>>, Dict)>,
}

struct Walk {
    seen: HashSet<usize>,
    elements: usize,
    out: Containers,
}

impl Walk {
    fn full(&self) -> bool {
        self.out.lists.len() + self.out.dicts.len() >= MAX_CONTAINERS
            || self.elements >= MAX_ELEMENTS
    }

    fn value(&mut self, v: &Value, depth: usize) {
        if depth > MAX_DEPTH || self.full() {
            return;
        }
        match v {
            Value::List(l) => {
                if !self.seen.insert(Rc::as_ptr(l) as *const u8 as usize) {
                    return;
                }
                let items = l.borrow().to_vec();
                self.elements += items.len();
                for item in &items {
                    self.value(item, depth + 1);
                }
                self.out.lists.push((l.clone(), items));
            }
            Value::Dict(d) | Value::Set(d) => self.dict(d, depth),
            Value::Tuple(t) => {
                if !self.seen.insert(Rc::as_ptr(t) as *const u8 as usize) {
                    return;
                }
                for item in t.iter() {
                    self.value(item, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn dict(&mut self, d: &Rc<RefCell<Dict>>, depth: usize) {
        if !self.seen.insert(Rc::as_ptr(d) as *const u8 as usize) {
            return;
        }
        let copy = d.borrow().clone();
        self.elements += copy.len();
        for (_, value) in copy.iter() {
            self.value(value, depth + 1);
        }
        self.out.dicts.push((d.clone(), copy));
    }
}

impl Containers {
    /// Copies the containers reachable from the values of `namespaces` (which are themselves
    /// restored by their owner).
    pub(super) fn capture<'a>(namespaces: impl Iterator<Item = &'a Dict>) -> Containers {
        let mut walk = Walk {
            seen: HashSet::new(),
            elements: 0,
            out: Containers::default(),
        };
        for ns in namespaces {
            for (_, value) in ns.iter() {
                walk.value(value, 1);
            }
        }
        walk.out
    }

    /// Puts back, in place, the contents of every copied container that differs from its
    /// copy (compared by identity: usually nothing is copied).
    pub(super) fn restore(&self) {
        for (live, copy) in &self.lists {
            let same = {
                let now = live.borrow();
                now.len() == copy.len()
                    && now
                        .iter()
                        .zip(copy)
                        .all(|(a, b)| super::same_value::identical(a, b))
            };
            if !same {
                let old = std::mem::replace(&mut *live.borrow_mut(), Seq::new(copy.clone()));
                drop(old);
            }
        }
        for (live, copy) in &self.dicts {
            if !super::same_value::unchanged(live, copy) {
                let old = std::mem::replace(&mut *live.borrow_mut(), copy.clone());
                drop(old);
            }
        }
    }

    /// How many containers were copied.
    #[cfg(test)]
    fn count(&self) -> usize {
        self.lists.len() + self.dicts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_containers_are_put_back_in_place() {
        let inner = Rc::new(RefCell::new(Seq::new(vec![Value::Int(1), Value::Int(2)])));
        let mut table = Dict::new();
        table.set_str("a", Value::List(inner.clone()));
        let table = Rc::new(RefCell::new(table));
        let mut ns = Dict::new();
        ns.set_str("TABLE", Value::Dict(table.clone()));
        let saved = Containers::capture(std::iter::once(&ns));
        assert_eq!(saved.count(), 2);
        inner.borrow_mut().push(Value::Int(3));
        table.borrow_mut().set_str("b", Value::None);
        saved.restore();
        assert_eq!(inner.borrow().len(), 2);
        assert_eq!(table.borrow().len(), 1);
        // the same objects: what a module's functions hold
        match ns.get_str("TABLE") {
            Some(Value::Dict(d)) => assert!(Rc::ptr_eq(d, &table)),
            _ => panic!("TABLE is gone"),
        }
    }
}

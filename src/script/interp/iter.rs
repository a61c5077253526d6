//! The iteration protocol: `iter()`, `next()`, and collecting an iterable into a Vec.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::errors::{Payload, PyException, PyResult};
use super::super::native::{Args, NativeCx};
use super::super::value::{DictIterKind, IterState, Value};
use super::Interpreter;
use crate::script::ExcType;

impl Interpreter {
    pub(crate) fn is_iterable(&self, v: &Value) -> bool {
        match v {
            Value::List(_)
            | Value::Tuple(_)
            | Value::Str(_)
            | Value::Dict(_)
            | Value::Set(_)
            | Value::Range(_)
            | Value::Iter(_)
            | Value::Native(_) => true,
            Value::Instance(i) => {
                i.base.is_some()
                    || i.class.lookup_user("__iter__").is_some()
                    || i.class.lookup_user("__getitem__").is_some()
            }
            _ => false,
        }
    }

    /// `iter(v)`.
    pub(crate) fn get_iter(&mut self, v: &Value) -> PyResult<Value> {
        let st = match v {
            Value::List(_) | Value::Tuple(_) => IterState::Seq {
                seq: v.clone(),
                idx: 0,
            },
            Value::Str(s) => IterState::Chars {
                s: s.clone(),
                pos: 0,
            },
            Value::Dict(d) => IterState::over_dict(d, DictIterKind::Keys),
            Value::Set(d) => IterState::Set {
                set: d.clone(),
                items: super::super::value::cpython_set_order_of(&d.borrow()),
                idx: 0,
                used: d.borrow().len(),
            },
            Value::Range(r) if r.fits_i64() => IterState::Range {
                cur: r.start as i64,
                remaining: r.len(),
                step: r.step as i64,
            },
            Value::Range(r) => IterState::BigRange {
                cur: r.start,
                remaining: r.len_exact(),
                step: r.step,
            },
            Value::Iter(_) => return Ok(v.clone()),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__iter__") {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return Ok(r);
                }
                // A dict/list subclass iterates its items (an overridden `__getitem__` is
                // not asked, as in CPython).
                if let Some(base) = &i.base {
                    return self.get_iter(base);
                }
                if i.class.lookup_user("__getitem__").is_some() {
                    IterState::GetItem {
                        obj: v.clone(),
                        idx: 0,
                    }
                } else {
                    return Err(PyException::not_iterable(&i.class.name));
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                if let Some(it) = n.iter(NativeCx::new(&n, self))? {
                    return Ok(it);
                }
                if n.len(NativeCx::new(&n, self))?.is_some() {
                    IterState::GetItem {
                        obj: v.clone(),
                        idx: 0,
                    }
                } else {
                    return Err(PyException::not_iterable(n.type_name()));
                }
            }
            _ => {
                return Err(PyException::not_iterable(v.type_name()));
            }
        };
        Ok(Value::Iter(Rc::new(RefCell::new(st))))
    }

    /// Advance an iterator; `Ok(None)` when exhausted.
    pub(crate) fn next_item(&mut self, it: &Value) -> PyResult<Option<Value>> {
        match it {
            Value::Iter(st) => self.next_builtin(st),
            Value::Instance(i) => match i.class.lookup_user("__next__") {
                Some(m) => match self.call_bound(&m, it.clone(), Args::default()) {
                    Ok(v) => Ok(Some(v)),
                    Err(e) if is_stop_iteration(&e) => Ok(None),
                    Err(e) => Err(e),
                },
                None => Err(PyException::new(
                    ExcType::TypeError,
                    format!("'{}' object is not an iterator", i.class.name),
                )),
            },
            Value::Native(n) => {
                let n = n.clone();
                n.next(NativeCx::new(&n, self))
            }
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not an iterator", it.type_name()),
            )),
        }
    }

    /// The next item of each of `inners` (zip, map), or `None`, with `st` exhausted for good,
    /// at the first of them that is done.
    fn next_of_each(
        &mut self,
        st: &Rc<RefCell<IterState>>,
        inners: &[Value],
    ) -> PyResult<Option<Vec<Value>>> {
        let mut items = Vec::with_capacity(inners.len());
        for i in inners {
            match self.next_item(i)? {
                Some(v) => items.push(v),
                None => {
                    *st.borrow_mut() = IterState::Done;
                    return Ok(None);
                }
            }
        }
        Ok(Some(items))
    }

    fn next_builtin(&mut self, st: &Rc<RefCell<IterState>>) -> PyResult<Option<Value>> {
        // Simple states advance under the borrow; composite ones release it before calling out.
        let mut b = st.borrow_mut();
        match &mut *b {
            IterState::Seq { seq, idx } => {
                let v = match seq {
                    Value::List(l) => l.borrow().get(*idx).cloned(),
                    Value::Tuple(t) => t.get(*idx).cloned(),
                    _ => None,
                };
                Ok(step_past(&mut b, v))
            }
            IterState::Items { items, idx } => {
                let v = items.get(*idx).cloned();
                Ok(step_past(&mut b, v))
            }
            IterState::Dict {
                dict,
                pos,
                used,
                remaining,
                kind,
            } => {
                let d = dict.borrow();
                if *used != d.len() {
                    *used = usize::MAX;
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        "dictionary changed size during iteration",
                    ));
                }
                let mut i = *pos;
                let found = loop {
                    match d.entry_at(i) {
                        None => break None,
                        Some(None) => i += 1,
                        Some(Some((k, v))) => break Some((k.clone(), v.clone())),
                    }
                };
                let Some((k, v)) = found else {
                    drop(d);
                    *b = IterState::Done;
                    return Ok(None);
                };
                if *remaining == 0 {
                    drop(d);
                    *b = IterState::Done;
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        "dictionary keys changed during iteration",
                    ));
                }
                *pos = i + 1;
                *remaining -= 1;
                let kind = *kind;
                drop(d);
                Ok(Some(match kind {
                    DictIterKind::Keys => k,
                    DictIterKind::Values => v,
                    DictIterKind::Items => Value::tuple(vec![k, v]),
                }))
            }
            IterState::Set {
                set,
                items,
                idx,
                used,
            } => {
                if *used != set.borrow().len() {
                    *used = usize::MAX;
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        "Set changed size during iteration",
                    ));
                }
                let v = items.get(*idx).cloned();
                Ok(step_past(&mut b, v))
            }
            IterState::Range {
                cur,
                remaining,
                step,
            } => {
                if *remaining == 0 {
                    return Ok(None);
                }
                let v = *cur;
                *remaining -= 1;
                *cur = cur.wrapping_add(*step);
                Ok(Some(Value::Int(v)))
            }
            IterState::BigRange {
                cur,
                remaining,
                step,
            } => {
                if *remaining == 0 {
                    return Ok(None);
                }
                let v = *cur;
                *remaining -= 1;
                if *remaining > 0 {
                    *cur += *step;
                }
                Ok(Some(super::super::bigint::from_i128(v)))
            }
            IterState::Chars { s, pos } => {
                let c = s.get(*pos..).and_then(|r| r.chars().next());
                match c {
                    Some(c) => {
                        *pos += c.len_utf8();
                        Ok(Some(Value::string(c.to_string())))
                    }
                    None => Ok(None),
                }
            }
            IterState::Done => Ok(None),
            IterState::Enumerate { inner, n } => {
                // A chain of a million map()s recurses here: RecursionError, not a crash.
                self.check_stack()?;
                let inner = inner.clone();
                let i = *n;
                *n += 1;
                drop(b);
                Ok(self
                    .next_item(&inner)?
                    .map(|v| Value::tuple(vec![Value::Int(i), v])))
            }
            IterState::Zip { inners } => {
                // A chain of a million map()s recurses here: RecursionError, not a crash.
                self.check_stack()?;
                let inners = inners.clone();
                drop(b);
                let Some(out) = self.next_of_each(st, &inners)? else {
                    return Ok(None);
                };
                if out.is_empty() {
                    return Ok(None);
                }
                Ok(Some(Value::tuple(out)))
            }
            IterState::Map { func, inners } => {
                // A chain of a million map()s recurses here: RecursionError, not a crash.
                self.check_stack()?;
                let (func, inners) = (func.clone(), inners.clone());
                drop(b);
                let Some(args) = self.next_of_each(st, &inners)? else {
                    return Ok(None);
                };
                self.call(&func, Args::new(args)).map(Some)
            }
            IterState::Filter { func, inner } => {
                // A chain of a million map()s recurses here: RecursionError, not a crash.
                self.check_stack()?;
                let (func, inner) = (func.clone(), inner.clone());
                drop(b);
                loop {
                    self.step()?;
                    let Some(v) = self.next_item(&inner)? else {
                        return Ok(None);
                    };
                    let keep = if func.is_none() {
                        self.truthy(&v)?
                    } else {
                        let r = self.call(&func, Args::new(vec![v.clone()]))?;
                        self.truthy(&r)?
                    };
                    if keep {
                        return Ok(Some(v));
                    }
                }
            }
            IterState::GetItem { obj, idx } => {
                let (obj, i) = (obj.clone(), *idx);
                *idx += 1;
                drop(b);
                match self.getitem(&obj, &Value::Int(i)) {
                    Ok(v) => Ok(Some(v)),
                    Err(e)
                        if matches!(
                            e.kind(),
                            Some(ExcType::IndexError | ExcType::StopIteration)
                        ) =>
                    {
                        *st.borrow_mut() = IterState::Done;
                        Ok(None)
                    }
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// Collect any iterable into a Vec (`list(x)`, unpacking, `*args`).
    pub(crate) fn iterate(&mut self, v: &Value) -> PyResult<Vec<Value>> {
        match v {
            Value::List(l) => return self.copy_polled(&l.borrow()),
            Value::Tuple(t) => return self.copy_polled(t),
            Value::Range(r) => {
                // MemoryError past the budget before anything is made (`list(range(10**9))`),
                // else made a chunk at a time with the limits polled between chunks
                let n = r.len();
                super::budget_for::<Value>(n)?;
                let mut out = Vec::with_capacity(n);
                const CHUNK: usize = 1 << 16;
                for start in (0..n).step_by(CHUNK) {
                    let end = (start + CHUNK).min(n);
                    if let Err(e) = self.work((end - start) as u64) {
                        return Err(self.leave_at_stop(out, e));
                    }
                    out.extend(
                        (start..end)
                            .filter_map(|i| r.item(i as u128).map(super::super::bigint::from_i128)),
                    );
                }
                return Ok(out);
            }
            _ => {}
        }
        let it = self.get_iter(v)?;
        let mut out = Vec::new();
        loop {
            let next = self.next_item(&it).and_then(|x| {
                self.step()?;
                super::grow_check(&out, out.capacity(), 1)?;
                Ok(x)
            });
            match next {
                Ok(Some(x)) => out.push(x),
                Ok(None) => return Ok(out),
                Err(e) => return Err(self.leave_at_stop(out, e)),
            }
        }
    }

    /// `e`, leaving `partial` (what a call was building) to be freed with the run's heap after
    /// its report when `e` stops the run: `list(zip(range(10**9), range(10**9)))` holds
    /// millions of tuples when the limit falls, and freeing them first made the report 0.4 s
    /// (idle) to 2 s (loaded) late.
    ///
    /// Any other error (the budget's MemoryError, which the script may catch and go on) frees
    /// the partial list now, as CPython does, but [`FREE_CHUNK`] items at a time with the
    /// limits polled between chunks: freeing 10^8 tuples takes about a second, and a time
    /// limit or Ctrl-c that falls meanwhile stops the run at once (the rest is then left for
    /// after the report) instead of after the free.
    pub(crate) fn leave_at_stop(&mut self, mut partial: Vec<Value>, e: PyException) -> PyException {
        if partial.is_empty() {
            return e;
        }
        if e.0.uncatchable {
            self.left_at_stop.push(Value::list(partial));
            return e;
        }
        while !partial.is_empty() {
            let keep = partial.len().saturating_sub(FREE_CHUNK);
            let freed = partial.len() - keep;
            partial.truncate(keep);
            if let Err(stop) = self.work(freed as u64)
                && stop.0.uncatchable
            {
                return self.leave_at_stop(partial, stop);
            }
        }
        e
    }
}

/// Items of a partial result freed between two polls of the limits (see
/// [`Interpreter::leave_at_stop`]): a few milliseconds of frees.
const FREE_CHUNK: usize = 1 << 16;

pub(crate) fn is_stop_iteration(e: &PyException) -> bool {
    match &e.0.payload {
        Payload::Lazy { kind, .. } => *kind == ExcType::StopIteration,
        Payload::Value(Value::Instance(i)) => {
            &*i.class.name == "StopIteration"
                || i.class.mro.iter().any(|c| &*c.name == "StopIteration")
        }
        _ => false,
    }
}

/// `item`, the one at an index-driven iterator's position (list, tuple, items, set): the
/// iterator steps past it, or, when there is none, is exhausted for good (CPython's list
/// iterator does not resume when the list grows again).
fn step_past(state: &mut IterState, item: Option<Value>) -> Option<Value> {
    match state {
        _ if item.is_none() => *state = IterState::Done,
        IterState::Seq { idx, .. } | IterState::Items { idx, .. } | IterState::Set { idx, .. } => {
            *idx += 1
        }
        _ => {}
    }
    item
}

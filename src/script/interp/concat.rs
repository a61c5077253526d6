//! Building a string in place: `s += t` and `s = s + t` on a str that only the variable holds
//! append into its buffer instead of copying the whole text (CPython's
//! `unicode_concatenate`, which made a loop of `s += str(i)` linear instead of quadratic).
//! Every other holder of the string keeps seeing its old text.

use super::super::errors::PyResult;
use super::super::ir::Target;
use super::super::native::BinOp;
use super::super::value::{PyStr, Value};
use super::Interpreter;
use super::stmt::Frame;

impl Interpreter {
    /// `name += text` or `name = name + text` with `cur` (the variable's str, loaded before the
    /// right side was evaluated) and `rhs` strs. When the variable still holds `cur` and,
    /// once `cur` is dropped, no one else does, the text is appended into its buffer
    /// (CPython's `unicode_concatenate`); otherwise a new string is made, as `+` makes it.
    pub(super) fn concat_assign(
        &mut self,
        f: &mut Frame,
        t: &Target,
        cur: Value,
        rhs: &Value,
    ) -> PyResult<()> {
        let taken = match &cur {
            Value::Str(x) => self.take_binding_if_same(f, t, x),
            _ => None,
        };
        let Some(mut s) = taken else {
            let v = self.binary_op(BinOp::Add, &cur, rhs)?;
            drop(cur);
            return self.store(f, t, v);
        };
        drop(cur);
        if let (Some(buf), Value::Str(y)) = (s.get_mut(), rhs) {
            // On failure (MemoryError, a limit) the variable keeps its old text.
            let r = self.append_str_polled(buf, y);
            self.store(f, t, Value::Str(s))?;
            return r;
        }
        let old = Value::Str(s);
        match self.binary_op(BinOp::Add, &old, rhs) {
            Ok(v) => {
                drop(old);
                self.store(f, t, v)
            }
            Err(e) => {
                self.store(f, t, old)?;
                Err(e)
            }
        }
    }

    /// Takes the str out of a name target's binding when it is `x` itself (the same object),
    /// leaving the binding empty (unbound, or None in a namespace) until the caller stores
    /// into it again; nothing runs in between.
    fn take_binding_if_same(&mut self, f: &mut Frame, t: &Target, x: &PyStr) -> Option<PyStr> {
        fn take_if(slot: &mut Option<Value>, x: &PyStr) -> Option<PyStr> {
            match slot {
                Some(Value::Str(s)) if PyStr::ptr_eq(s, x) => match slot.take() {
                    Some(Value::Str(s)) => Some(s),
                    _ => None,
                },
                _ => None,
            }
        }
        fn take_value_if(slot: &mut Value, x: &PyStr) -> Option<PyStr> {
            match slot {
                Value::Str(s) if PyStr::ptr_eq(s, x) => match std::mem::take(slot) {
                    Value::Str(s) => Some(s),
                    _ => None,
                },
                _ => None,
            }
        }
        match t {
            Target::Fast(i) => take_if(f.locals.get_mut(*i as usize)?, x),
            Target::Cell(i) => take_if(&mut f.cells.get(*i as usize)?.borrow_mut(), x),
            Target::Free(i) => take_if(&mut f.free.get(*i as usize)?.borrow_mut(), x),
            Target::Global(n, h) => take_value_if(f.globals.borrow_mut().get_mut_hashed(n, *h)?, x),
            Target::Name(n, h) => {
                let d = f.ns.clone().unwrap_or_else(|| f.globals.clone());
                let mut d = d.borrow_mut();
                take_value_if(d.get_mut_hashed(n, *h)?, x)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::script::{Interpreter, Limits};

    fn output(src: &str) -> String {
        let mut it = Interpreter::new(Limits::default());
        if let Err(e) = it.run_main(src, "concat.py") {
            panic!("script failed: {}", e.traceback);
        }
        it.take_stdout()
    }

    #[test]
    fn every_other_holder_keeps_the_old_text() {
        let src = r#"
s = ""
for i in range(5):
    s += str(i)
t = s
s += "x"
print(s, t, s is t)
def f():
    a = "ab"
    b = a
    a += "c"
    c = "q" * 3
    keep = c
    c = c + "z"
    items = [a]
    a += "!"
    print(a, b, c, keep, items)
f()
"#;
        assert_eq!(
            output(src),
            "01234x 01234 False\nabc! ab qqqz qqq ['abc']\n"
        );
    }

    #[test]
    fn every_kind_of_variable_appends_as_cpython_concatenates() {
        // Expected output: CPython 3.11.7 on this script.
        let src = r#"
def f():
    d = "x"
    for i in range(3):
        d = d + str(i)
    def g():
        nonlocal d
        d += "!"
        d = d + "?"
    g()
    e = "s"
    e += e
    e = e + e
    print(d, e)
f()
class C:
    x = "a"
    x += "b"
    x = x + "c"
g = "m"
def h():
    global g
    g += "n"
    g = g + "o"
h()
def side():
    global g
    g = "new"
    return "!"
g = g + side()
u = "\u00e9"
u += "\u00fc"
print(C.x, g, u, len(u))
l = [1]
l2 = l
l = l + [2]
l2 += [3]
print(l, l2)
try:
    z = "a"
    z = z + 1
except TypeError as e:
    print(e)
"#;
        assert_eq!(
            output(src),
            "x012!? ssss\nabc mno! \u{e9}\u{fc} 2\n[1, 2] [1, 3]\n\
             can only concatenate str (not \"int\") to str\n"
        );
    }

    #[test]
    fn a_long_loop_of_appends_builds_the_whole_string() {
        let src =
            "s = ''\nfor i in range(20000):\n    s += str(i % 10)\nprint(len(s), s[:12], s[-3:])\n";
        assert_eq!(output(src), "20000 012345678901 789\n");
    }
}

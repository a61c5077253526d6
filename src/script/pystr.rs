//! The text of a `str` value: shared by reference count and immutable to every holder, except
//! that the sole holder may append to it in place ([`PyStr::get_mut`]). That is CPython's
//! `unicode_concatenate` trick: `s += t` on a string no one else sees grows its buffer
//! (amortised, as a `String` grows) instead of copying the whole text every time, which made
//! a loop of `s += str(i)` quadratic.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// A `str` value's text (compares, orders and hashes as its text).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyStr(Rc<String>);

impl PyStr {
    /// The same object (`is`).
    pub(crate) fn ptr_eq(a: &PyStr, b: &PyStr) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }
    /// The object's address (`id()`); it does not change when the sole holder appends.
    pub(crate) fn addr(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
    /// The buffer, when this is the only reference to the string (nothing else can see a
    /// change).
    pub fn get_mut(&mut self) -> Option<&mut String> {
        Rc::get_mut(&mut self.0)
    }
    /// A shared `Rc<str>` copy of the text (for the places that keep names as `Rc<str>`).
    pub(crate) fn to_rc(&self) -> Rc<str> {
        Rc::from(self.as_str())
    }
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl Deref for PyStr {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for PyStr {
    fn as_ref(&self) -> &str {
        self
    }
}

impl Borrow<str> for PyStr {
    fn borrow(&self) -> &str {
        self
    }
}

impl From<String> for PyStr {
    fn from(s: String) -> PyStr {
        PyStr(Rc::new(s))
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr(Rc::new(s.to_owned()))
    }
}

impl From<&String> for PyStr {
    fn from(s: &String) -> PyStr {
        PyStr(Rc::new(s.clone()))
    }
}

impl From<Rc<str>> for PyStr {
    fn from(s: Rc<str>) -> PyStr {
        PyStr::from(&*s)
    }
}

impl From<&Rc<str>> for PyStr {
    fn from(s: &Rc<str>) -> PyStr {
        PyStr::from(&**s)
    }
}

impl From<PyStr> for Rc<str> {
    fn from(s: PyStr) -> Rc<str> {
        s.to_rc()
    }
}

impl From<&PyStr> for Rc<str> {
    fn from(s: &PyStr) -> Rc<str> {
        s.to_rc()
    }
}

impl PartialEq<str> for PyStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PyStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_string_gives_no_buffer_and_a_sole_one_does() {
        let mut a = PyStr::from("ab");
        let b = a.clone();
        assert!(a.get_mut().is_none());
        drop(b);
        let addr = a.addr();
        a.get_mut().expect("sole holder").push_str("cd");
        assert_eq!(&*a, "abcd");
        assert_eq!(a.addr(), addr);
    }

    #[test]
    fn compares_and_hashes_as_its_text() {
        use std::collections::HashSet;
        let set: HashSet<PyStr> = [PyStr::from("x")].into_iter().collect();
        assert!(set.contains("x"));
        let (a, b) = (PyStr::from("a"), PyStr::from("b"));
        assert!(a < b);
        assert_eq!(PyStr::from(String::from("é")), PyStr::from("é"));
    }
}

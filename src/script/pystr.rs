//! The text of a `str` value: shared by reference count and immutable to every holder, except
//! that the sole holder may append to it in place ([`PyStr::get_mut`]). That is CPython's
//! `unicode_concatenate` trick: `s += t` on a string no one else sees grows its buffer
//! (amortised, as a `String` grows) instead of copying the whole text every time, which made
//! a loop of `s += str(i)` quadratic.
//!
//! Its dict hash is kept beside the text once computed, as CPython keeps a str's hash in the
//! object: a key inserted or looked up again is not hashed again, and hashing it does not read
//! the text (a second allocation, so a cache miss for each of 100,000 keys made earlier).

use std::borrow::Borrow;
use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

/// A `str` value's text (compares, orders and hashes as its text).
#[derive(Clone, Default)]
pub struct PyStr(Rc<Text>);

#[derive(Default)]
struct Text {
    /// The dict hash of `text` ([`PyStr::cached_hash`]), 0 while not computed.
    hash: Cell<u64>,
    text: String,
}

impl Text {
    fn new(text: String) -> Text {
        Text {
            hash: Cell::new(0),
            text,
        }
    }
}

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
        let t = Rc::get_mut(&mut self.0)?;
        // the text may change: its hash is computed again when next asked
        t.hash.set(0);
        Some(&mut t.text)
    }
    /// The text's hash by `compute`, computed once and kept (every caller passes the same
    /// function: the dict's key hash). A hash that comes out 0 is computed each time.
    #[inline]
    pub(crate) fn cached_hash(&self, compute: impl FnOnce(&str) -> u64) -> u64 {
        let kept = self.0.hash.get();
        if kept != 0 {
            return kept;
        }
        let h = compute(&self.0.text);
        self.0.hash.set(h);
        h
    }
    /// A shared `Rc<str>` copy of the text (for the places that keep names as `Rc<str>`).
    pub(crate) fn to_rc(&self) -> Rc<str> {
        Rc::from(self.as_str())
    }
    pub fn as_str(&self) -> &str {
        self.0.text.as_str()
    }
}

impl PartialEq for PyStr {
    fn eq(&self, other: &PyStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for PyStr {}

impl PartialOrd for PyStr {
    fn partial_cmp(&self, other: &PyStr) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PyStr {
    fn cmp(&self, other: &PyStr) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// As its text's (so a `HashSet<PyStr>` finds a `&str`).
impl Hash for PyStr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl Deref for PyStr {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
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
        PyStr(Rc::new(Text::new(s)))
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr(Rc::new(Text::new(s.to_owned())))
    }
}

impl From<&String> for PyStr {
    fn from(s: &String) -> PyStr {
        PyStr(Rc::new(Text::new(s.clone())))
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
    fn the_kept_hash_is_computed_once_and_again_after_an_append() {
        let mut a = PyStr::from("ab");
        let calls = Cell::new(0);
        let hash = |s: &str| {
            calls.set(calls.get() + 1);
            s.len() as u64
        };
        assert_eq!(a.cached_hash(hash), 2);
        assert_eq!(a.clone().cached_hash(hash), 2);
        assert_eq!(calls.get(), 1, "a clone shares the kept hash");
        a.get_mut().expect("sole holder").push_str("cde");
        assert_eq!(a.cached_hash(hash), 5);
        assert_eq!(calls.get(), 2);
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

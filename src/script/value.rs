//! The value model. Every heap value is reference-counted (`Rc`) and nothing else holds
//! hidden references, so an object dies exactly when its last reference goes — at `del x`, at
//! rebinding, at the end of the statement for a temporary — as in CPython. The torch
//! bindings' memory counters depend on that timing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::{Rc, Weak};

use num_bigint::BigInt;

use super::dict_index::DictIndex;
pub(crate) use super::drop::Seq;
use super::errors::PyResult;
use super::interp::Interpreter;
use super::ir::FuncCode;
use super::native::{Args, NativeFn, NativeObject};
pub(crate) use super::pystr::PyStr;

/// A small fast hasher (the FxHash mixing step): names are short and not attacker-chosen in a
/// way that matters here (a learner can only slow down their own run, and the step limit holds).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.add(u64::from_le_bytes(a));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut a = [0u8; 8];
            a[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(a));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
pub(crate) type FxHashMap<K, V> = HashMap<K, V, FxBuild>;

/// A shared, mutable variable slot: a closure cell (`nonlocal`, captured locals).
pub(crate) type CellRef = Rc<RefCell<Option<Value>>>;

/// A Python value.
#[derive(Clone, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    /// An int outside the i64 range (never one that fits: see `script::bigint`).
    BigInt(Rc<BigInt>),
    Float(f64),
    Str(PyStr),
    List(Rc<RefCell<Seq>>),
    Tuple(Rc<Seq>),
    Dict(Rc<RefCell<Dict>>),
    /// A set is a [`Dict`] whose values are `None` (keeps insertion order).
    Set(Rc<RefCell<Dict>>),
    Range(Rc<RangeObj>),
    Slice(Rc<[Value; 3]>),
    Function(Rc<Function>),
    NativeFn(Rc<NativeFn>),
    /// `obj.method` for a Python function found on the class.
    BoundMethod(Rc<BoundMethod>),
    /// `"a,b".split` / `[].append` — a method of a builtin type, dispatched by name when called.
    BuiltinMethod(Rc<(Value, Rc<str>)>),
    Class(Rc<Class>),
    Instance(Rc<Instance>),
    Module(Rc<Module>),
    Native(Rc<dyn NativeObject>),
    /// Builtin iterators (list/range/dict iterators, enumerate, zip, map, filter, …).
    Iter(Rc<RefCell<IterState>>),
    Super(Rc<(Rc<Class>, Value)>),
    StaticMethod(Rc<Value>),
    ClassMethod(Rc<Value>),
    Property(Rc<Property>),
    Ellipsis,
    NotImplemented,
}

/// `range(start, stop, step)`. Bounds may be big ints up to [`RANGE_BOUND`] in magnitude
/// (CPython allows any size; 2**120 keeps every length, index and slice computation, and those
/// of slices of slices, well inside i128).
pub struct RangeObj {
    pub start: i128,
    pub stop: i128,
    pub step: i128,
}

/// The largest magnitude of a `range()` argument.
pub(crate) const RANGE_BOUND: i128 = 1 << 120;

impl RangeObj {
    /// The exact number of items.
    pub(crate) fn len_exact(&self) -> u128 {
        let (a, b, s) = (self.start, self.stop, self.step);
        let n = if s > 0 {
            if b > a { (b - a + s - 1) / s } else { 0 }
        } else if a > b && s < 0 {
            (a - b - s - 1) / (-s)
        } else {
            0
        };
        n.max(0) as u128
    }
    /// The number of items, capped at `i64::MAX` (what indexing and loops can reach).
    pub fn len(&self) -> usize {
        self.len_exact().min(i64::MAX as u128) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len_exact() == 0
    }
    /// The i-th item when it fits i64 (the loop fast path).
    #[inline]
    pub fn get(&self, i: usize) -> Option<i64> {
        i64::try_from(self.item(i as u128)?).ok()
    }
    /// The i-th item of any size.
    pub fn item(&self, i: u128) -> Option<i128> {
        if i >= self.len_exact() {
            return None;
        }
        Some(self.start + self.step * i as i128)
    }
    /// The position of `v`, if the range holds it.
    pub(crate) fn index_of(&self, v: i128) -> Option<u128> {
        let d = v.checked_sub(self.start)?;
        if self.step == 0 || d % self.step != 0 {
            return None;
        }
        let k = d / self.step;
        (k >= 0 && (k as u128) < self.len_exact()).then_some(k as u128)
    }
    /// True when every item fits i64 (iterated with the i64 iterator).
    pub(crate) fn fits_i64(&self) -> bool {
        let last = match self.len_exact() {
            0 => return true,
            n => self.start + self.step * (n - 1) as i128,
        };
        i64::try_from(self.start).is_ok()
            && i64::try_from(last).is_ok()
            && i64::try_from(self.step).is_ok()
    }
}

pub struct Property {
    pub fget: Value,
    pub fset: Value,
}

pub struct BoundMethod {
    pub receiver: Value,
    pub func: Value,
}

/// A function defined in Python (`def` or `lambda`).
pub struct Function {
    pub name: Rc<str>,
    pub qualname: Rc<str>,
    pub code: Rc<FuncCode>,
    /// Defaults of the last positional parameters, in order.
    pub defaults: Vec<Value>,
    /// Defaults of keyword-only parameters (None = required).
    pub kwdefaults: Vec<Option<Value>>,
    pub closure: Vec<CellRef>,
    pub globals: Rc<RefCell<Dict>>,
    /// The class whose body defined this function: what zero-argument `super()` searches from.
    /// Weak, so a class and its methods do not keep each other alive.
    pub owner: RefCell<Option<Weak<Class>>>,
    pub attrs: RefCell<Option<Dict>>,
}

/// What kind of instances a class makes (and what `isinstance` compares against).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassKind {
    /// `class Foo:` in a script or prelude, and exception classes.
    User,
    /// `object`: the root of every class.
    Object,
    /// A builtin type (`int`, `list`, …): calling it converts.
    Builtin(BuiltinType),
    /// The type of native objects with this `type_name` (`torch.Tensor`).
    Native,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinType {
    NoneType,
    Bool,
    Int,
    Float,
    Str,
    List,
    Tuple,
    Dict,
    Set,
    Range,
    Slice,
    Function,
    BuiltinFunction,
    Method,
    Type,
    Module,
    Iterator,
    Super,
    StaticMethod,
    ClassMethod,
    Property,
    Ellipsis,
    NotImplementedType,
}

pub struct Class {
    pub name: Rc<str>,
    pub module: Rc<str>,
    pub bases: Vec<Rc<Class>>,
    /// The method resolution order after this class itself (C3 linearisation).
    pub mro: Vec<Rc<Class>>,
    pub dict: RefCell<Dict>,
    pub kind: ClassKind,
    /// True when BaseException is in the MRO: instances carry `args` and are raisable.
    pub is_exception: bool,
    /// For native classes: what calling the class does (`torch.Tensor([1, 2])`).
    pub ctor: RefCell<Option<Value>>,
}

impl Class {
    /// `cls.__module__`: what the class dict says (a script may set it after the class
    /// statement, as torch's preludes do), else the module the class was made in.
    pub(crate) fn module_name(&self) -> Rc<str> {
        if let Some(Value::Str(s)) = self.dict.borrow().get_str("__module__") {
            return s.to_rc();
        }
        self.module.clone()
    }
    /// Look `name` up along the MRO (self first).
    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.dict.borrow().get_str(name) {
            return Some(v.clone());
        }
        for c in &self.mro {
            if let Some(v) = c.dict.borrow().get_str(name) {
                return Some(v.clone());
            }
        }
        None
    }
    /// Like [`Class::lookup`] but ignores what `object` itself provides: used to ask "does this
    /// class override `__setattr__` / `__eq__`…".
    pub(crate) fn lookup_user(&self, name: &str) -> Option<Value> {
        if self.kind != ClassKind::Object
            && let Some(v) = self.dict.borrow().get_str(name)
        {
            return Some(v.clone());
        }
        for c in &self.mro {
            if c.kind == ClassKind::Object {
                continue;
            }
            if let Some(v) = c.dict.borrow().get_str(name) {
                return Some(v.clone());
            }
        }
        None
    }
    /// `issubclass(self, other)`.
    pub(crate) fn is_subclass(&self, other: &Class) -> bool {
        std::ptr::eq(self, other) || self.mro.iter().any(|c| std::ptr::eq(&**c, other))
    }
}

pub struct Instance {
    pub class: Rc<Class>,
    /// `self.__dict__`: shared so `vars(self)` / `self.__dict__[k] = v` see the same storage.
    pub dict: Rc<RefCell<Dict>>,
    /// Exception instances only, once any is set: `__cause__`, `__context__`,
    /// `__suppress_context__` and the traceback of the last time it was caught.
    pub exc: RefCell<Option<Box<ExcChain>>>,
    /// Instances of a subclass of `dict` or `list`: the builtin value holding their items,
    /// which the builtin methods and operators act on (see `interp::builtin_subclass`).
    pub base: Option<Value>,
}

impl Instance {
    pub fn new(class: Rc<Class>) -> Instance {
        Instance {
            class,
            dict: Default::default(),
            exc: RefCell::new(None),
            base: None,
        }
    }
}

/// What CPython keeps on an exception object besides its args: the exception it was raised
/// `from`, the one being handled when it was raised, and where it travelled.
#[derive(Default)]
pub struct ExcChain {
    /// `raise X from Y`: Y (`None` for none).
    pub cause: Value,
    /// The exception being handled when this one was raised (implicit chaining).
    pub context: Value,
    /// Set by `raise … from …`: the context is not printed.
    pub suppress_context: bool,
    /// Innermost frame first, as recorded when the exception was last caught.
    pub traceback: Vec<super::errors::TraceEntry>,
}

/// A module: `torch`, `math`, `__main__`, or one registered by the embedder.
pub struct Module {
    pub name: Rc<str>,
    pub dict: Rc<RefCell<Dict>>,
}

impl Module {
    pub fn new(name: &str) -> Module {
        let m = Module {
            name: name.into(),
            dict: Rc::new(RefCell::new(Dict::new())),
        };
        m.set_attr("__name__", Value::str(name));
        m
    }
    pub fn set_attr(&self, name: &str, v: Value) {
        self.dict.borrow_mut().set_str(name, v);
    }
    pub(crate) fn get_attr(&self, name: &str) -> Option<Value> {
        self.dict.borrow().get_str(name).cloned()
    }
    /// Add a native function attribute (`torch.zeros`).
    pub fn add_fn(
        &self,
        name: &str,
        f: impl Fn(&mut Interpreter, Args) -> PyResult<Value> + 'static,
    ) {
        self.set_attr(name, Value::native_fn(name, f));
    }
    pub fn into_value(self) -> Value {
        Value::Module(Rc::new(self))
    }
}

/// State of a builtin iterator.
pub enum IterState {
    /// Over a list/tuple by index (a list may grow while iterated, like CPython).
    Seq {
        seq: Value,
        idx: usize,
    },
    Items {
        items: Vec<Value>,
        idx: usize,
    },
    Range {
        cur: i64,
        remaining: usize,
        step: i64,
    },
    /// A range whose items go beyond i64.
    BigRange {
        cur: i128,
        remaining: u128,
        step: i128,
    },
    Chars {
        s: PyStr,
        pos: usize,
    },
    Enumerate {
        inner: Value,
        n: i64,
    },
    Zip {
        inners: Vec<Value>,
    },
    Map {
        func: Value,
        inners: Vec<Value>,
    },
    Filter {
        func: Value,
        inner: Value,
    },
    /// Over a dict (or one of its views) by entry position, as CPython's dict iterators do:
    /// a change of size raises "dictionary changed size during iteration" (and keeps raising).
    Dict {
        dict: Rc<RefCell<Dict>>,
        pos: usize,
        /// The size when iteration began; `usize::MAX` once a change was reported.
        used: usize,
        /// Entries still expected (finding more means the keys changed).
        remaining: usize,
        kind: DictIterKind,
    },
    /// Over a set in CPython's order (a snapshot), failing like CPython if the set's size
    /// changes: "Set changed size during iteration".
    Set {
        set: Rc<RefCell<Dict>>,
        items: Vec<Value>,
        idx: usize,
        used: usize,
    },
    /// `iter(obj)` over an object with `__getitem__` only.
    GetItem {
        obj: Value,
        idx: i64,
    },
    Done,
}

/// A chain of iterators (`it = map(abs, it)` a million times) is freed without deep recursion:
/// what an iterator holds goes through [`super::drop::drop_values`].
impl Drop for IterState {
    fn drop(&mut self) {
        let held: Vec<Value> = match self {
            IterState::Seq { seq, .. } => vec![std::mem::take(seq)],
            IterState::Items { items, .. } => std::mem::take(items),
            IterState::Enumerate { inner, .. } => vec![std::mem::take(inner)],
            IterState::Zip { inners } => std::mem::take(inners),
            IterState::Map { func, inners } => {
                let mut v = std::mem::take(inners);
                v.push(std::mem::take(func));
                v
            }
            IterState::Filter { func, inner } => {
                vec![std::mem::take(func), std::mem::take(inner)]
            }
            IterState::GetItem { obj, .. } => vec![std::mem::take(obj)],
            _ => return,
        };
        super::drop::drop_values(held);
    }
}

/// A chain of functions holding each other (defaults, closures: `f = lambda g=f: g` a million
/// times) is freed without deep recursion.
impl Drop for Function {
    fn drop(&mut self) {
        let mut held = std::mem::take(&mut self.defaults);
        held.extend(std::mem::take(&mut self.kwdefaults).into_iter().flatten());
        for cell in std::mem::take(&mut self.closure) {
            if let Ok(c) = Rc::try_unwrap(cell)
                && let Some(v) = c.into_inner()
            {
                held.push(v);
            }
        }
        if !held.is_empty() {
            super::drop::drop_values(held);
        }
    }
}

impl Drop for BoundMethod {
    fn drop(&mut self) {
        super::drop::drop_values([
            std::mem::take(&mut self.receiver),
            std::mem::take(&mut self.func),
        ]);
    }
}

/// What a dict iterator yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictIterKind {
    Keys,
    Values,
    Items,
}

impl IterState {
    pub(crate) fn over_dict(dict: &Rc<RefCell<Dict>>, kind: DictIterKind) -> IterState {
        let n = dict.borrow().len();
        IterState::Dict {
            dict: dict.clone(),
            pos: 0,
            used: n,
            remaining: n,
            kind,
        }
    }
}

// ---------------------------------------------------------------- dict keys

/// A hashable key: what a value is as a dict key / set member. Equal Python values give equal
/// keys (`1`, `1.0` and `True` are the same key, as in CPython).
#[derive(Clone, Debug)]
pub enum HKey {
    None,
    Int(i64),
    /// An int outside the i64 range (an integral float that large too).
    Big(Rc<BigInt>),
    Float(u64),
    Str(PyStr),
    Tuple(Box<[HKey]>),
    /// Identity (classes, functions, instances without `__hash__`, natives without `hash`).
    Id(usize),
    /// An object's own hash, plus its type name so different types do not collide. (Boxed,
    /// as the next one: the rare keys stay out of the size of every dict entry.)
    Hashed(Box<(Rc<str>, i64)>),
    /// An instance whose class defines `__hash__` but not `__eq__`: its hash, and its identity,
    /// since object's `__eq__` is identity (two such objects with one hash are two keys).
    HashedObject(Box<(Rc<str>, i64, usize)>),
    /// An instance whose class defines both `__hash__` and `__eq__`: its hash and its
    /// identity. The index hashes it by its hash alone, so the keys it might equal are found
    /// together ([`Dict::eq_candidates`]); whether it equals one of them is its `__eq__`'s
    /// answer, which the interpreter asks (`Interpreter::key_in`), as CPython does.
    EqObject(i64, usize),
    Ellipsis,
}

#[derive(Hash, PartialEq, Eq, Clone, Copy)]
pub enum KeyView<'a> {
    None,
    Int(i64),
    Big(&'a BigInt),
    Float(u64),
    Str(&'a str),
    Tuple(&'a [HKey]),
    Id(usize),
    Hashed(&'a str, i64),
    HashedObject(&'a str, i64, usize),
    EqObject(i64, usize),
    Ellipsis,
}

impl HKey {
    /// The key borrowed, for hashing and comparing without cloning.
    pub fn view(&self) -> KeyView<'_> {
        match self {
            HKey::None => KeyView::None,
            HKey::Int(i) => KeyView::Int(*i),
            HKey::Big(b) => KeyView::Big(b),
            HKey::Float(f) => KeyView::Float(*f),
            HKey::Str(s) => KeyView::Str(s),
            HKey::Tuple(t) => KeyView::Tuple(t),
            HKey::Id(i) => KeyView::Id(*i),
            HKey::Hashed(b) => KeyView::Hashed(&b.0, b.1),
            HKey::HashedObject(b) => KeyView::HashedObject(&b.0, b.1, b.2),
            HKey::EqObject(h, id) => KeyView::EqObject(*h, *id),
            HKey::Ellipsis => KeyView::Ellipsis,
        }
    }
}

impl Hash for HKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.view().hash(state)
    }
}
impl PartialEq for HKey {
    fn eq(&self, other: &Self) -> bool {
        self.view() == other.view()
    }
}
impl Eq for HKey {}

impl HKey {
    /// The key of a float: integral floats equal the int key (`d[1.0]` finds `d[1]`).
    pub fn float(f: f64) -> HKey {
        if f.fract() != 0.0 || !f.is_finite() {
            return HKey::Float(f.to_bits());
        }
        match super::bigint::from_f64(f) {
            Ok(Value::Int(i)) => HKey::Int(i),
            Ok(Value::BigInt(b)) => HKey::Big(b),
            _ => HKey::Float(f.to_bits()),
        }
    }
    /// `hash()`: CPython's value where it does not depend on addresses (ints, floats,
    /// strings as under `PYTHONHASHSEED=0`, tuples of those), a stable hash otherwise.
    pub(crate) fn py_hash(&self) -> i64 {
        match self.cpython_hash() {
            Some(h) => h,
            None => match self {
                HKey::None => 0x5f3759df,
                HKey::Hashed(b) => b.1,
                HKey::HashedObject(b) => b.1,
                HKey::EqObject(h, _) => *h,
                _ => {
                    let mut h = FxHasher::default();
                    self.hash(&mut h);
                    (h.finish() >> 1) as i64
                }
            },
        }
    }
    /// CPython 3.11's hash of this key (strings as with `PYTHONHASHSEED=0`), when it is one
    /// that does not depend on an address.
    pub(crate) fn cpython_hash(&self) -> Option<i64> {
        Some(match self {
            HKey::Int(i) => hash_int(*i),
            HKey::Big(b) => super::bigint::hash(b),
            HKey::Float(bits) => hash_float(f64::from_bits(*bits))?,
            HKey::Str(s) => hash_str(s),
            HKey::Tuple(items) => {
                let mut hs = Vec::with_capacity(items.len());
                for k in items.iter() {
                    hs.push(k.cpython_hash()?);
                }
                hash_tuple(&hs)
            }
            _ => return None,
        })
    }
}

const HASH_BITS: u32 = 61;
const HASH_MODULUS: u64 = (1 << HASH_BITS) - 1;

/// CPython's hash of an int: the value modulo 2**61 - 1, keeping the sign (-1 becomes -2).
pub(crate) fn hash_int(i: i64) -> i64 {
    let m = (i.unsigned_abs() % HASH_MODULUS) as i64;
    let h = if i < 0 { -m } else { m };
    if h == -1 { -2 } else { h }
}

/// CPython's `_Py_HashDouble` (None for NaN, whose hash is its address).
pub(crate) fn hash_float(v: f64) -> Option<i64> {
    if v.is_nan() {
        return None;
    }
    if v.is_infinite() {
        return Some(if v > 0.0 { 314_159 } else { -314_159 });
    }
    if v == 0.0 {
        return Some(0);
    }
    // frexp: v = m * 2**e with 0.5 <= |m| < 1.
    let bits = v.abs().to_bits();
    let (mut m, mut e) = {
        let exp = ((bits >> 52) & 0x7ff) as i32;
        if exp == 0 {
            // Subnormal: scale up first.
            let f = v.abs() * 2f64.powi(64);
            let b = f.to_bits();
            let ex = ((b >> 52) & 0x7ff) as i32;
            (
                f64::from_bits((b & !(0x7ff << 52)) | (1022 << 52)),
                ex - 1022 - 64,
            )
        } else {
            (
                f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)),
                exp - 1022,
            )
        }
    };
    let sign: i64 = if v < 0.0 { -1 } else { 1 };
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & HASH_MODULUS) | (x >> (HASH_BITS - 28));
        m *= 268_435_456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= HASH_MODULUS {
            x -= HASH_MODULUS;
        }
    }
    let bitsn = HASH_BITS as i32;
    let e = if e >= 0 {
        e % bitsn
    } else {
        bitsn - 1 - ((-1 - e) % bitsn)
    } as u32;
    x = ((x << e) & HASH_MODULUS) | (x >> (HASH_BITS - e));
    let h = (x as i64).wrapping_mul(sign);
    Some(if h == -1 { -2 } else { h })
}

/// CPython's str hash with a zero key (`PYTHONHASHSEED=0`): SipHash-1-3 over the string's
/// storage (1, 2 or 4 bytes per character, by its widest character).
pub(crate) fn hash_str(s: &str) -> i64 {
    if s.is_empty() {
        return 0;
    }
    let widest = s.chars().map(|c| c as u32).max().unwrap_or(0);
    let mut data: Vec<u8> = Vec::with_capacity(s.len() * 2);
    for c in s.chars() {
        let c = c as u32;
        if widest < 0x100 {
            data.push(c as u8);
        } else if widest < 0x10000 {
            data.extend_from_slice(&(c as u16).to_le_bytes());
        } else {
            data.extend_from_slice(&c.to_le_bytes());
        }
    }
    let h = siphash13(0, 0, &data) as i64;
    if h == -1 { -2 } else { h }
}

fn siphash13(k0: u64, k1: u64, data: &[u8]) -> u64 {
    let mut v0 = k0 ^ 0x736f_6d65_7073_6575;
    let mut v1 = k1 ^ 0x646f_7261_6e64_6f6d;
    let mut v2 = k0 ^ 0x6c79_6765_6e65_7261;
    let mut v3 = k1 ^ 0x7465_6462_7974_6573;
    let round = |v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64| {
        *v0 = v0.wrapping_add(*v1);
        *v2 = v2.wrapping_add(*v3);
        *v1 = v1.rotate_left(13) ^ *v0;
        *v3 = v3.rotate_left(16) ^ *v2;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v1);
        *v0 = v0.wrapping_add(*v3);
        *v1 = v1.rotate_left(17) ^ *v2;
        *v3 = v3.rotate_left(21) ^ *v0;
        *v2 = v2.rotate_left(32);
    };
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        let mi = u64::from_le_bytes(a);
        v3 ^= mi;
        round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= mi;
    }
    let rest = chunks.remainder();
    let mut t = [0u8; 8];
    t[..rest.len()].copy_from_slice(rest);
    let b = ((data.len() as u64) << 56) | u64::from_le_bytes(t);
    v3 ^= b;
    round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= b;
    v2 ^= 0xff;
    for _ in 0..3 {
        round(&mut v0, &mut v1, &mut v2, &mut v3);
    }
    (v0 ^ v1) ^ (v2 ^ v3)
}

/// CPython's tuple hash (the xxHash-style mix of the items' hashes).
pub(crate) fn hash_tuple(items: &[i64]) -> i64 {
    const P1: u64 = 11_400_714_785_074_694_791;
    const P2: u64 = 14_029_467_366_897_019_727;
    const P5: u64 = 2_870_177_450_012_600_261;
    let mut acc = P5;
    for &h in items {
        acc = acc.wrapping_add((h as u64).wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add((items.len() as u64) ^ (P5 ^ 3_527_539));
    if acc == u64::MAX {
        return 1_546_275_796;
    }
    acc as i64
}

/// The index's hash of a key: the same for an `HKey` and a borrowed name, so a name site can
/// compute it once at compile time ([`Dict::get_hashed`]).
///
/// An int is its own hash, as in CPython: the index ([`DictIndex`]) starts a probe at the
/// hash's low bits, so keys over a range go to consecutive slots and the index is walked in
/// order, and its probe sequence brings the high bits in for keys that share their low bits.
/// Any other key is FxHash of its [`KeyView`], with the high half folded down and multiplied
/// once more: FxHash ends in a multiply, which leaves its entropy in the high bits, and 20,000
/// keys `'item0000'`… or even `str(i)` started in about 1,100 of 32,768 slots without it
/// (the unit tests).
pub(crate) fn key_hash(k: KeyView<'_>) -> u64 {
    let mut h = FxHasher::default();
    match k {
        KeyView::Int(i) => return i as u64,
        // By the object's hash alone, as CPython's (objects that may be equal share a probe,
        // and `__eq__` runs in the order and as often as in CPython).
        KeyView::EqObject(x, _) => return x as u64,
        _ => k.hash(&mut h),
    }
    let p = h.finish();
    (p ^ (p >> 32)).wrapping_mul(SEED).rotate_left(26)
}

/// [`key_hash`] of a key, kept in a str key's object after the first time (as CPython keeps a
/// str's hash), so the key a loop inserts again, or looks up by, is not hashed again.
#[inline]
fn hkey_hash(k: &HKey) -> u64 {
    match k {
        HKey::Str(s) => s.cached_hash(|t| key_hash(KeyView::Str(t))),
        _ => key_hash(k.view()),
    }
}

/// An insertion-ordered hash map from Python keys to values: `dict`, `set`, namespaces,
/// instance and class `__dict__`s. Deleted entries leave a hole that compaction removes.
/// The index holds positions in `entries`, looked up by hash, so a caller that knows a key's
/// hash (a global name in compiled code) skips hashing it.
///
/// The index is CPython's ([`DictIndex`]: open addressing over positions in `entries`, an int
/// hashing to itself); each entry keeps its key's hash, as CPython's entries do, so growing
/// the index hashes no key again and a probe compares hashes before it compares keys. A dict
/// of at most [`LINEAR_MAX`] entries has no index.
#[derive(Default, Clone)]
pub struct Dict {
    entries: Vec<Entry>,
    /// Live entries (`entries` less its holes).
    live: usize,
    index: DictIndex,
    /// Sets only: how CPython laid out the first entries (see [`cpython_set_order_of`]):
    /// the count inserted straight into a table of the given size. 0 = plain insertion.
    set_base: [u32; 2],
}

/// Entries are freed through [`super::drop::drop_values`], so a dict nested a million deep
/// (or a chain of instances, whose attributes live in one) frees without deep recursion.
impl Drop for Dict {
    fn drop(&mut self) {
        if self.entries.is_empty() {
            return;
        }
        let mut entries = std::mem::take(&mut self.entries);
        // Entries whose key and value hold no other object (ints, strings, floats) cannot
        // recurse: they drop here in one tight pass. Walking every entry through
        // drop_values' chained iterators cost about 140 instructions per entry, a sixth of
        // each `d[i] = i` in a loop that builds and drops a dict.
        entries.retain(|e| {
            matches!(&e.item, Some((_, k, v)) if super::drop::is_container(k) || super::drop::is_container(v))
        });
        if !entries.is_empty() {
            super::drop::drop_values(
                entries
                    .into_iter()
                    .filter_map(|e| e.item)
                    .flat_map(|(_, k, v)| [k, v]),
            );
        }
    }
}

/// One key of a dict, with its hash beside it (80 bytes), or the hole its
/// removal left (the hash stays; nothing reads it).
///
/// The hash lives in the entry, not in a vector of its own, so that a probe that meets an
/// occupied slot reads one line to compare both hash and key, as CPython's entries: with the
/// hashes apart, looking up 100,000 str keys (random slots) read three lines a key (slot,
/// hash, entry) and took 23 ms against CPython's 10 ms.
#[derive(Clone)]
struct Entry {
    hash: u64,
    item: Option<(HKey, Value, Value)>,
}

/// Whether the entry at `i` holds the key `k`, whose hash is `h`.
#[inline]
fn key_at(entries: &[Entry], i: usize, h: u64, k: KeyView<'_>) -> bool {
    let Some(e) = entries.get(i) else {
        return false;
    };
    if e.hash != h {
        return false;
    }
    match (&e.item, k) {
        // The same text is often the same allocation (a key looked up by the string it was
        // stored with).
        (Some((HKey::Str(s), _, _)), KeyView::Str(q)) => {
            std::ptr::eq(s.as_ptr(), q.as_ptr()) && s.len() == q.len() || **s == *q
        }
        (Some((hk, _, _)), _) => hk.view() == k,
        _ => false,
    }
}

/// Dicts of at most this many entries (holes included) have no index: a lookup compares the
/// kept hashes one by one, as quick as a probe at that size, and the dicts made most often (an
/// instance's attributes, keyword arguments) skip the index's allocation and rebuilds:
/// creating an instance with two attributes took about 490 more instructions (7,650, from
/// 7,160) with an index from the first key.
const LINEAR_MAX: usize = 8;

/// Every live entry's position and hash, in entry order: what the index is rebuilt from.
fn live_positions(entries: &[Entry]) -> impl Iterator<Item = (u32, u64)> + '_ {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.item.is_some())
        .map(|(i, e)| (position(i), e.hash))
}

/// A position in `entries` as the index stores it. A dict cannot reach 2^32 entries: every
/// insert that grows one past a power of two asks the memory budget for the larger table
/// first (`dict_grow_check`), and 2^32 entries are over 256 GB.
#[inline]
fn position(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl Dict {
    /// The largest set whose copy [`Dict::set_copy`] lays out as CPython would (past it, a
    /// copy keeps this table's order).
    pub(crate) const SIMULATED_SET_MAX: usize = 100_000;
    pub fn new() -> Dict {
        Dict::default()
    }
    pub fn len(&self) -> usize {
        self.live
    }
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
    /// The position of the entry whose key is `k` (hash `h`).
    fn find(&self, h: u64, k: KeyView<'_>) -> Option<usize> {
        let entries = &self.entries;
        if !self.index.is_built() {
            return (0..entries.len()).find(|&i| key_at(entries, i, h, k));
        }
        self.index
            .find(h, |i| key_at(entries, i as usize, h, k))
            .map(|i| i as usize)
    }
    /// Removes `k` from the index; returns where its entry is.
    fn unindex(&mut self, k: KeyView<'_>) -> Option<usize> {
        let h = key_hash(k);
        let found = if self.index.is_built() {
            let entries = &self.entries;
            self.index
                .remove(h, |i| key_at(entries, i as usize, h, k))
                .map(|i| i as usize)
        } else {
            self.find(h, k)
        };
        if found.is_some() {
            self.live -= 1;
        }
        found
    }
    fn value_at(&self, i: usize) -> Option<&Value> {
        self.entries.get(i)?.item.as_ref().map(|e| &e.2)
    }
    pub fn get(&self, k: &HKey) -> Option<&Value> {
        self.value_at(self.find(hkey_hash(k), k.view())?)
    }
    pub(crate) fn get_str(&self, k: &str) -> Option<&Value> {
        let v = KeyView::Str(k);
        self.value_at(self.find(key_hash(v), v)?)
    }
    /// The value of the name `k` (its [`key_hash`] `hash`), to change in place.
    pub(crate) fn get_mut_hashed(&mut self, k: &str, hash: u64) -> Option<&mut Value> {
        let i = self.find(hash, KeyView::Str(k))?;
        self.entries.get_mut(i)?.item.as_mut().map(|e| &mut e.2)
    }
    /// `get_str` for a name whose [`key_hash`] is already known.
    pub(crate) fn get_hashed(&self, k: &str, hash: u64) -> Option<&Value> {
        self.value_at(self.find(hash, KeyView::Str(k))?)
    }
    /// For an [`HKey::EqObject`] key: the `EqObject` keys with its hash (each with its key
    /// object) in the order CPython's `lookdict` compares them, the slots of its probe (a key
    /// the probe meets twice is there twice), ending at the object itself when it is a key.
    /// Empty for any other key.
    pub(crate) fn eq_candidates(&self, k: &HKey) -> Vec<(HKey, Value)> {
        let HKey::EqObject(hash, id) = *k else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // Keys with one hash share a probe, in the order they went in: without an index,
        // that order is the entries'. (A Vec: this runs only before `__eq__` calls.)
        let positions: Vec<u32> = if self.index.is_built() {
            self.index.candidates(key_hash(k.view())).collect()
        } else {
            (0..position(self.entries.len())).collect()
        };
        for i in positions {
            if let Some(Entry {
                item: Some((hk @ HKey::EqObject(h, other), key, _)),
                ..
            }) = self.entries.get(i as usize)
                && *h == hash
            {
                out.push((hk.clone(), key.clone()));
                if *other == id {
                    break;
                }
            }
        }
        out
    }
    pub fn contains(&self, k: &HKey) -> bool {
        self.find(hkey_hash(k), k.view()).is_some()
    }
    pub(crate) fn contains_str(&self, k: &str) -> bool {
        let v = KeyView::Str(k);
        self.find(key_hash(v), v).is_some()
    }
    /// Replaces the value of an existing key; gives `v` back when the key is not there.
    fn replace(&mut self, h: u64, k: KeyView<'_>, v: Value) -> Result<Value, Value> {
        match self.find(h, k) {
            Some(i) => match self.entries.get_mut(i) {
                Some(Entry { item: Some(e), .. }) => Ok(std::mem::replace(&mut e.2, v)),
                _ => Err(v),
            },
            None => Err(v),
        }
    }
    /// Appends a key known to be absent.
    fn push_new(&mut self, h: u64, hk: HKey, key: Value, v: Value) {
        let Dict {
            entries,
            index,
            live,
            ..
        } = self;
        if index.is_built() {
            index.insert_new(h, position(entries.len()), || live_positions(entries));
        }
        entries.push(Entry {
            hash: h,
            item: Some((hk, key, v)),
        });
        *live += 1;
        if !index.is_built() && entries.len() > LINEAR_MAX {
            index.rebuild(*live, live_positions(entries));
        }
    }
    /// Insert or replace; returns the previous value (which the caller drops — at the moment
    /// CPython would).
    pub fn insert(&mut self, hk: HKey, key: Value, v: Value) -> Option<Value> {
        let h = hkey_hash(&hk);
        if !self.index.is_built() {
            return match self.replace(h, hk.view(), v) {
                Ok(old) => Some(old),
                Err(v) => {
                    self.push_new(h, hk, key, v);
                    None
                }
            };
        }
        let Dict {
            entries,
            index,
            live,
            ..
        } = self;
        // One probe finds the key or the slot for it.
        let view = hk.view();
        match index.find_or_vacant(h, |i| key_at(entries, i as usize, h, view)) {
            Ok(i) => match entries.get_mut(i as usize) {
                Some(Entry { item: Some(e), .. }) => Some(std::mem::replace(&mut e.2, v)),
                _ => None,
            },
            Err(vacant) => {
                let pos = position(entries.len());
                index.insert_vacant(vacant, h, pos, || live_positions(entries));
                entries.push(Entry {
                    hash: h,
                    item: Some((hk, key, v)),
                });
                *live += 1;
                None
            }
        }
    }
    pub(crate) fn set_str(&mut self, k: &str, v: Value) -> Option<Value> {
        self.set_str_hashed(k, key_hash(KeyView::Str(k)), v)
    }
    /// Insert with an already interned name (no allocation).
    pub(crate) fn set_name(&mut self, k: &Rc<str>, v: Value) -> Option<Value> {
        self.set_name_hashed(k, key_hash(KeyView::Str(k)), v)
    }
    /// `set_name` for a name whose [`key_hash`] is already known.
    pub(crate) fn set_name_hashed(&mut self, k: &Rc<str>, h: u64, v: Value) -> Option<Value> {
        self.set_str_hashed(k, h, v)
    }
    /// Insert under a str key whose [`key_hash`] is `h`.
    fn set_str_hashed(&mut self, k: &str, h: u64, v: Value) -> Option<Value> {
        match self.replace(h, KeyView::Str(k), v) {
            Ok(old) => Some(old),
            Err(v) => {
                let s = PyStr::from(k);
                self.push_new(h, HKey::Str(s.clone()), Value::Str(s), v);
                None
            }
        }
    }
    pub fn remove(&mut self, k: &HKey) -> Option<(Value, Value)> {
        let i = self.unindex(k.view())?;
        self.set_base = [0, 0];
        let e = self.entries.get_mut(i)?.item.take();
        self.maybe_compact();
        e.map(|(_, k, v)| (k, v))
    }
    pub(crate) fn remove_str(&mut self, k: &str) -> Option<Value> {
        let i = self.unindex(KeyView::Str(k))?;
        self.set_base = [0, 0];
        let e = self.entries.get_mut(i)?.item.take();
        self.maybe_compact();
        e.map(|(_, _, v)| v)
    }
    fn maybe_compact(&mut self) {
        if self.entries.len() > LINEAR_MAX && self.live * 2 < self.entries.len() {
            let Dict { entries, index, .. } = self;
            entries.retain(|e| e.item.is_some());
            let kept = entries.len();
            if kept > LINEAR_MAX {
                index.rebuild(kept, live_positions(entries));
            } else {
                index.clear();
            }
        }
    }
    pub fn clear(&mut self) -> Vec<(Value, Value)> {
        self.index.clear();
        self.live = 0;
        self.set_base = [0, 0];
        std::mem::take(&mut self.entries)
            .into_iter()
            .filter_map(|e| e.item)
            .map(|(_, k, v)| (k, v))
            .collect()
    }
    /// Entries in insertion order: (key, value).
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries
            .iter()
            .filter_map(|e| e.item.as_ref())
            .map(|(_, k, v)| (k, v))
    }
    pub(crate) fn iter_full(&self) -> impl Iterator<Item = (&HKey, &Value, &Value)> {
        self.entries
            .iter()
            .filter_map(|e| e.item.as_ref())
            .map(|(h, k, v)| (h, k, v))
    }
    pub fn keys(&self) -> Vec<Value> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }
    pub fn values(&self) -> Vec<Value> {
        self.iter().map(|(_, v)| v.clone()).collect()
    }
    /// The i-th live entry (for iterators that survive mutation by index).
    pub(crate) fn entry_at(&self, raw: usize) -> Option<Option<(&Value, &Value)>> {
        self.entries
            .get(raw)
            .map(|e| e.item.as_ref().map(|(_, k, v)| (k, v)))
    }
    /// A set built the way CPython builds a constant display (`{'a', 'b', 'c', 'd', 'e'}`: a
    /// frozenset constant, filled in order, merged into an empty set).
    pub(crate) fn set_from_constant_display(&mut self) {
        *self = self.set_copy();
    }
    /// CPython's `set_merge` of this set into a new empty one (`s.copy()`, `set(s)`): the new
    /// table is sized for twice the items; when that is this table's size the layout is
    /// copied, otherwise the items go in, in this table's order, without further growth.
    /// Laid out that way, the copy prints in CPython's order.
    pub fn set_copy(&self) -> Dict {
        let n = self.len();
        let mut hashes = Vec::with_capacity(n);
        for (_, k, _) in self.iter_full() {
            match value_cpython_hash(k) {
                Some(h) => hashes.push(h as u64),
                None => return self.clone(),
            }
        }
        if n > Dict::SIMULATED_SET_MAX {
            return self.clone();
        }
        let (order, size) = simulate_indices(&hashes, self.set_base);
        let mut new_size = 8usize;
        if n * 5 >= 21 {
            while new_size <= 2 * n {
                new_size <<= 1;
            }
        }
        if new_size == size {
            return self.clone();
        }
        let live: Vec<(&HKey, &Value, &Value)> = self.iter_full().collect();
        let mut d = Dict::new();
        for i in order {
            if let Some((h, k, v)) = live.get(i) {
                d.insert((*h).clone(), (*k).clone(), (*v).clone());
            }
        }
        d.set_base = [n as u32, new_size as u32];
        d
    }
    /// Slots in the entry vector (live entries plus the holes deletions left): what a copy
    /// allocates.
    pub(crate) fn slots(&self) -> usize {
        self.entries.len()
    }
    /// A copy (`d.copy()`, `dict(d)`, `{**d}`, `set(s)` of a large set), its entries cloned
    /// `chunk` at a time with `poll(n)` after each chunk of `n`, so that copying millions of
    /// entries stops at the run's limits; `refused()` when the allocator refuses the memory.
    /// The index is copied as it is (hashes included): nothing is hashed again.
    pub(crate) fn clone_polled<E>(
        &self,
        chunk: usize,
        mut poll: impl FnMut(usize) -> Result<(), E>,
        refused: impl FnOnce() -> E,
    ) -> Result<Dict, E> {
        let mut entries = Vec::new();
        if entries.try_reserve_exact(self.entries.len()).is_err() {
            return Err(refused());
        }
        for part in self.entries.chunks(chunk.max(1)) {
            entries.extend_from_slice(part);
            poll(part.len())?;
        }
        Ok(Dict {
            entries,
            live: self.live,
            index: self.index.clone(),
            set_base: self.set_base,
        })
    }
    pub(crate) fn pop_last(&mut self) -> Option<(Value, Value)> {
        self.set_base = [0, 0];
        while let Some(Entry { hash: h, item }) = self.entries.pop() {
            if let Some((_, k, v)) = item {
                // Its position is the table's last, just popped: find it by position.
                let at = position(self.entries.len());
                if self.index.is_built() {
                    self.index.remove(h, |i| i == at);
                }
                self.live -= 1;
                return Some((k, v));
            }
        }
        None
    }
}

// ---------------------------------------------------------------- constructors and views

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }
    pub fn string(s: String) -> Value {
        Value::Str(s.into())
    }
    pub fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(Seq::new(v))))
    }
    pub fn tuple(v: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(Seq::new(v)))
    }
    pub fn dict(d: Dict) -> Value {
        Value::Dict(Rc::new(RefCell::new(d)))
    }
    /// A dict with string keys, in the given order.
    pub(crate) fn dict_from_pairs(pairs: Vec<(&str, Value)>) -> Value {
        let mut d = Dict::new();
        for (k, v) in pairs {
            d.set_str(k, v);
        }
        Value::dict(d)
    }
    pub fn native(obj: impl NativeObject) -> Value {
        Value::Native(Rc::new(obj))
    }
    /// A Rust closure as a Python callable. Capture `this.clone()` for a bound method.
    pub fn native_fn(
        name: &str,
        f: impl Fn(&mut Interpreter, Args) -> PyResult<Value> + 'static,
    ) -> Value {
        Value::NativeFn(Rc::new(NativeFn {
            name: name.into(),
            f: Box::new(f),
        }))
    }
    /// An iterator over ready values (what a native `iter` can return).
    pub fn iter_from_vec(items: Vec<Value>) -> Value {
        Value::Iter(Rc::new(RefCell::new(IterState::Items { items, idx: 0 })))
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// `int` (and bool, which is an int in Python) as i64, without calling anything.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }
    /// A number (int, bool or float) as f64 (None for an int too large for a float).
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            Value::BigInt(b) => super::bigint::to_f64(b).ok(),
            Value::Bool(b) => Some(*b as i64 as f64),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The native object, if this is one of type `T`.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        match self {
            Value::Native(n) => n.as_any().downcast_ref::<T>(),
            _ => None,
        }
    }
    /// The items of a list or tuple (a copy of the element references).
    /// The indices of a subscript key one by one: `x[a, b]` arrives as the tuple `(a, b)`,
    /// `x[a]` as `a` alone.
    pub(crate) fn subscript_items(&self) -> Vec<Value> {
        match self {
            Value::Tuple(t) => (**t).clone(),
            _ => vec![self.clone()],
        }
    }
    pub fn as_vec(&self) -> Option<Vec<Value>> {
        match self {
            Value::List(l) => Some(l.borrow().clone()),
            Value::Tuple(t) => Some((**t).clone()),
            _ => None,
        }
    }

    /// The Python type name (`type(x).__name__`), used in error messages.
    pub fn type_name(&self) -> String {
        match self {
            Value::Instance(i) => i.class.name.to_string(),
            Value::Native(n) => n.type_name().to_string(),
            _ => self
                .builtin_type()
                .map(builtin_type_name)
                .unwrap_or("object")
                .to_string(),
        }
    }

    pub(crate) fn builtin_type(&self) -> Option<BuiltinType> {
        Some(match self {
            Value::None => BuiltinType::NoneType,
            Value::Bool(_) => BuiltinType::Bool,
            Value::Int(_) | Value::BigInt(_) => BuiltinType::Int,
            Value::Float(_) => BuiltinType::Float,
            Value::Str(_) => BuiltinType::Str,
            Value::List(_) => BuiltinType::List,
            Value::Tuple(_) => BuiltinType::Tuple,
            Value::Dict(_) => BuiltinType::Dict,
            Value::Set(_) => BuiltinType::Set,
            Value::Range(_) => BuiltinType::Range,
            Value::Slice(_) => BuiltinType::Slice,
            Value::Function(_) => BuiltinType::Function,
            Value::NativeFn(_) | Value::BuiltinMethod(_) => BuiltinType::BuiltinFunction,
            Value::BoundMethod(_) => BuiltinType::Method,
            Value::Class(_) => BuiltinType::Type,
            Value::Module(_) => BuiltinType::Module,
            Value::Iter(_) => BuiltinType::Iterator,
            Value::Super(_) => BuiltinType::Super,
            Value::StaticMethod(_) => BuiltinType::StaticMethod,
            Value::ClassMethod(_) => BuiltinType::ClassMethod,
            Value::Property(_) => BuiltinType::Property,
            Value::Ellipsis => BuiltinType::Ellipsis,
            Value::NotImplemented => BuiltinType::NotImplementedType,
            Value::Instance(_) | Value::Native(_) => return None,
        })
    }

    /// Identity (`is`, `id()`): pointer equality for heap values, value equality for the
    /// immediates CPython caches (None, bools, small ints).
    pub fn is(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Ellipsis, Value::Ellipsis) => true,
            (Value::NotImplemented, Value::NotImplemented) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Str(a), Value::Str(b)) => PyStr::ptr_eq(a, b) || (a.len() <= 1 && a == b),
            _ => match (self.ptr_id(), other.ptr_id()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }

    /// The address of the heap object, if it is one.
    pub(crate) fn ptr_id(&self) -> Option<usize> {
        Some(match self {
            Value::Str(s) => s.addr(),
            Value::BigInt(x) => Rc::as_ptr(x) as usize,
            Value::List(x) => Rc::as_ptr(x) as usize,
            Value::Tuple(x) => Rc::as_ptr(x) as usize,
            Value::Dict(x) | Value::Set(x) => Rc::as_ptr(x) as usize,
            Value::Range(x) => Rc::as_ptr(x) as usize,
            Value::Slice(x) => Rc::as_ptr(x) as *const u8 as usize,
            Value::Function(x) => Rc::as_ptr(x) as usize,
            Value::NativeFn(x) => Rc::as_ptr(x) as usize,
            Value::BoundMethod(x) => Rc::as_ptr(x) as usize,
            Value::BuiltinMethod(x) => Rc::as_ptr(x) as usize,
            Value::Class(x) => Rc::as_ptr(x) as usize,
            Value::Instance(x) => Rc::as_ptr(x) as usize,
            Value::Module(x) => Rc::as_ptr(x) as usize,
            Value::Native(x) => Rc::as_ptr(x) as *const u8 as usize,
            Value::Iter(x) => Rc::as_ptr(x) as usize,
            Value::Super(x) => Rc::as_ptr(x) as usize,
            Value::StaticMethod(x) | Value::ClassMethod(x) => Rc::as_ptr(x) as usize,
            Value::Property(x) => Rc::as_ptr(x) as usize,
            _ => return None,
        })
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::string(s)
    }
}
impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Value {
        Value::list(v)
    }
}

pub(crate) fn builtin_type_name(t: BuiltinType) -> &'static str {
    match t {
        BuiltinType::NoneType => "NoneType",
        BuiltinType::Bool => "bool",
        BuiltinType::Int => "int",
        BuiltinType::Float => "float",
        BuiltinType::Str => "str",
        BuiltinType::List => "list",
        BuiltinType::Tuple => "tuple",
        BuiltinType::Dict => "dict",
        BuiltinType::Set => "set",
        BuiltinType::Range => "range",
        BuiltinType::Slice => "slice",
        BuiltinType::Function => "function",
        BuiltinType::BuiltinFunction => "builtin_function_or_method",
        BuiltinType::Method => "method",
        BuiltinType::Type => "type",
        BuiltinType::Module => "module",
        BuiltinType::Iterator => "iterator",
        BuiltinType::Super => "super",
        BuiltinType::StaticMethod => "staticmethod",
        BuiltinType::ClassMethod => "classmethod",
        BuiltinType::Property => "property",
        BuiltinType::Ellipsis => "ellipsis",
        BuiltinType::NotImplementedType => "NotImplementedType",
    }
}

/// [`cpython_set_order`] of a set's entries, honouring how its first entries were laid out
/// ([`Dict::set_from_constant_display`]).
pub(crate) fn cpython_set_order_of(d: &Dict) -> Vec<Value> {
    simulate_set_order(d.keys(), d.set_base)
}

fn simulate_set_order(items: Vec<Value>, base: [u32; 2]) -> Vec<Value> {
    if items.len() > 100_000 {
        return items;
    }
    let mut hashes = Vec::with_capacity(items.len());
    for v in &items {
        match value_cpython_hash(v) {
            Some(h) => hashes.push(h as u64),
            None => return items,
        }
    }
    simulate_indices(&hashes, base)
        .0
        .into_iter()
        .filter_map(|i| items.get(i).cloned())
        .collect()
}

/// The slots' order after inserting these hashes one by one into CPython's set table (the
/// first `base[0]` straight into a table of `base[1]` slots), and the table's final size.
fn simulate_indices(hashes: &[u64], base: [u32; 2]) -> (Vec<usize>, usize) {
    const LINEAR_PROBES: usize = 9;
    const PERTURB_SHIFT: u32 = 5;
    fn insert_clean(table: &mut [Option<(u64, usize)>], mask: usize, h: u64, idx: usize) {
        let mut perturb = h;
        let mut i = (h as usize) & mask;
        loop {
            if table[i].is_none() {
                table[i] = Some((h, idx));
                return;
            }
            if i + LINEAR_PROBES <= mask {
                for j in 1..=LINEAR_PROBES {
                    if table[i + j].is_none() {
                        table[i + j] = Some((h, idx));
                        return;
                    }
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }
    let (n_base, base_size) = (base[0] as usize, (base[1] as usize).max(8));
    let mut table: Vec<Option<(u64, usize)>> = vec![
        None;
        if n_base > 0 {
            base_size.next_power_of_two()
        } else {
            8
        }
    ];
    let mut used = 0usize;
    for (idx, h) in hashes.iter().enumerate() {
        let mask = table.len() - 1;
        insert_clean(&mut table, mask, *h, idx);
        if idx < n_base {
            used += 1;
            continue;
        }
        used += 1;
        if used * 5 >= mask * 3 {
            let minused = if used > 50_000 { used * 2 } else { used * 4 };
            let mut newsize = 8;
            while newsize <= minused {
                newsize <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; newsize]);
            for (h, i) in old.into_iter().flatten() {
                insert_clean(&mut table, newsize - 1, h, i);
            }
        }
    }
    let size = table.len();
    (table.into_iter().flatten().map(|(_, i)| i).collect(), size)
}

/// CPython's hash of a set member, for the values whose hash is not an address.
fn value_cpython_hash(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(hash_int(*i)),
        Value::BigInt(b) => Some(super::bigint::hash(b)),
        Value::Bool(b) => Some(*b as i64),
        Value::Float(f) => HKey::float(*f).cpython_hash(),
        Value::Str(s) => Some(hash_str(s)),
        Value::Tuple(t) => {
            let mut hs = Vec::with_capacity(t.len());
            for x in t.iter() {
                hs.push(value_cpython_hash(x)?);
            }
            Some(hash_tuple(&hs))
        }
        _ => None,
    }
}

#[cfg(test)]
mod dict_tests {
    use super::*;

    fn int_key(i: i64) -> (HKey, Value) {
        (HKey::Int(i), Value::Int(i))
    }

    /// Inserts, replacements, removals (through compaction), pops and name lookups by hash
    /// against a plain ordered list of live keys.
    #[test]
    fn dict_keeps_insertion_order_and_finds_every_live_key() {
        let mut d = Dict::new();
        let mut model: Vec<i64> = Vec::new();
        for i in 0..2000 {
            let (hk, k) = int_key(i * 7 % 1999);
            if d.insert(hk, k, Value::Int(i)).is_none() {
                model.push(i * 7 % 1999);
            }
        }
        for i in (0..1999).step_by(2) {
            let removed = d.remove(&HKey::Int(i)).map(|(k, _)| k.as_int());
            assert_eq!(removed, Some(Some(i)), "removing {i}");
            model.retain(|&m| m != i);
        }
        assert_eq!(d.pop_last().and_then(|(k, _)| k.as_int()), model.pop());
        assert_eq!(d.len(), model.len());
        let keys: Vec<i64> = d.keys().iter().filter_map(Value::as_int).collect();
        assert_eq!(keys, model);
        for &m in &model {
            assert!(d.contains(&HKey::Int(m)), "{m} is found after compaction");
        }
        assert!(!d.contains(&HKey::Int(0)));

        let name: Rc<str> = "total".into();
        d.set_name(&name, Value::Int(1));
        let other_copy = String::from("total");
        assert_eq!(d.get_str(&other_copy).and_then(Value::as_int), Some(1));
        let h = key_hash(KeyView::Str("total"));
        d.set_name_hashed(&name, h, Value::Int(2));
        assert_eq!(d.get_hashed("total", h).and_then(Value::as_int), Some(2));
        assert_eq!(d.remove_str("total").and_then(|v| v.as_int()), Some(2));
        assert!(d.get_hashed("total", h).is_none());
    }

    #[test]
    fn a_str_key_is_found_by_its_text_and_by_another_object_with_it() {
        let mut d = Dict::new();
        let keys: Vec<PyStr> = (0..50).map(|i| PyStr::from(format!("k{i}"))).collect();
        for (i, k) in keys.iter().enumerate() {
            d.insert(
                HKey::Str(k.clone()),
                Value::Str(k.clone()),
                Value::Int(i as i64),
            );
        }
        // the same objects again: their kept hashes replace, not add
        for k in &keys {
            d.insert(HKey::Str(k.clone()), Value::Str(k.clone()), Value::Int(-1));
        }
        assert_eq!(d.len(), 50);
        for (i, k) in keys.iter().enumerate() {
            let fresh = HKey::Str(PyStr::from(format!("k{i}")));
            assert_eq!(d.get(&fresh).and_then(Value::as_int), Some(-1));
            assert!(d.contains_str(k));
            assert!(d.remove(&fresh).is_some());
            assert!(!d.contains(&HKey::Str(k.clone())));
        }
    }

    /// How many of a 2^15-bucket table's buckets these keys' index hashes start in.
    fn buckets_used(keys: impl Iterator<Item = u64>) -> usize {
        let mask = (1u64 << 15) - 1;
        let used: std::collections::HashSet<u64> = keys.map(|h| h & mask).collect();
        used.len()
    }

    #[test]
    fn string_keys_that_differ_only_in_their_last_characters_spread_over_the_index() {
        let keys: Vec<String> = (0..20_000).map(|i| format!("item{i:04}")).collect();
        let long: Vec<String> = (0..20_000).map(|i| format!("sample_item_{i:05}")).collect();
        let numbers: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
        for set in [&keys, &long, &numbers] {
            let used = buckets_used(set.iter().map(|k| key_hash(KeyView::Str(k))));
            // 20,000 keys thrown at random into 32,768 buckets fill about 14,000 of them.
            assert!(used > 12_000, "{}: {used} buckets", set[0]);
        }
    }
}

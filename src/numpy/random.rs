//! `np.random`'s legacy generator (`RandomState`, what `np.random.seed` / `rand` / `randn`
//! use): MT19937 seeded by `mt19937_seed`, doubles from two 32-bit draws (27 + 26 bits),
//! normals by the polar Box-Muller method with the second value cached (`legacy_gauss`),
//! bounded integers by masked rejection, shuffles by `random_interval` — numpy's
//! numpy/random/src/legacy and distributions code, so a seeded script prints numpy's numbers.

use super::array::{NdArray, err, numel};
use super::bit_stream::{
    BitStream, generator_object, sample_larger_than_population, shuffle_rows, size_arg,
    sized_result,
};
use crate::engine::dtype::DType;
use crate::script::ExcType;
use crate::script::{Args, Interpreter, Module, Mt19937, NativeObject, PyResult, Value};
use std::cell::RefCell;

/// numpy's legacy `RandomState`: the MT19937 of Python's `random` (one generator, two APIs)
/// and the second normal of the polar method's pair.
#[derive(Clone)]
pub(crate) struct State {
    mt: Mt19937,
    gauss: Option<f64>,
}

impl State {
    pub(crate) fn new(seed: u32) -> State {
        State {
            mt: Mt19937::init_genrand(seed),
            gauss: None,
        }
    }

    /// `legacy_double`: 53 random bits in [0, 1), as `random.random()` makes them.
    pub(crate) fn double(&mut self) -> f64 {
        self.mt.random()
    }

    pub(crate) fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.double() - 1.0;
            let x2 = 2.0 * self.double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// `random_bounded_uint64` with the mask method (legacy `randint`): off + [0, rng].
    pub(crate) fn bounded(&mut self, off: i64, rng: u64) -> i64 {
        if rng == 0 {
            return off;
        }
        if rng == 0xffff_ffff {
            return off.wrapping_add(self.next32() as i64);
        }
        off.wrapping_add(self.interval(rng) as i64)
    }
}

impl BitStream for State {
    fn next32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn next64(&mut self) -> u64 {
        ((self.next32() as u64) << 32) | self.next32() as u64
    }
}

pub(crate) struct RandomState(pub RefCell<State>);

fn state_of(v: &Value) -> Option<&RandomState> {
    v.downcast::<RandomState>()
}

fn count(size: &Option<Vec<usize>>) -> usize {
    size.as_ref().map_or(1, |s| numel(s))
}

fn float_of(it: &mut Interpreter, v: &Option<Value>, default: f64) -> PyResult<f64> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(v) => {
            let o = super::ops::operand(it, v)?;
            Ok(o.vals.first().copied().unwrap_or(default))
        }
    }
}

/// Dims given as separate ints (`rand(2, 3)`).
fn dims(it: &mut Interpreter, args: &Args, name: &str) -> PyResult<Option<Vec<usize>>> {
    if !args.keywords.is_empty() {
        return Err(err(
            ExcType::TypeError,
            format!("{name}() takes no keyword arguments"),
        ));
    }
    if args.positional.is_empty() {
        return Ok(None);
    }
    super::funcs::dims_of(it, &args.positional).map(Some)
}

/// `size` float64 draws (one scalar when None): standard normal (the polar method) or
/// uniform in [0, 1).
fn draw_floats(st: &RandomState, size: Option<Vec<usize>>, normal: bool) -> PyResult<Value> {
    let vals = (0..count(&size))
        .map(|_| {
            let mut state = st.0.borrow_mut();
            if normal {
                state.gauss()
            } else {
                state.double()
            }
        })
        .collect();
    sized_result(vals, size, DType::Float64)
}

/// `arange(n)` as int64 (empty for a negative n): the population `permutation(n)` and
/// `choice(n)` draw from.
fn arange(n: i64) -> PyResult<NdArray> {
    let n = n.max(0);
    NdArray::from_f64(
        &super::runtime(),
        &(0..n).map(|i| i as f64).collect::<Vec<_>>(),
        vec![n as usize],
        DType::Int64,
    )
}

fn call(it: &mut Interpreter, st: &RandomState, name: &str, args: Args) -> PyResult<Value> {
    match name {
        "seed" => {
            let a = args.bind("seed", &["seed"], 0)?;
            let s = match &a[0] {
                None | Some(Value::None) => 0,
                Some(v) => {
                    let i = it.index_int(v)?;
                    if !(0..=0xffff_ffff).contains(&i) {
                        return Err(err(
                            ExcType::ValueError,
                            "Seed must be between 0 and 2**32 - 1",
                        ));
                    }
                    i as u32
                }
            };
            *st.0.borrow_mut() = State::new(s);
            Ok(Value::None)
        }
        "rand" | "randn" => {
            let size = dims(it, &args, name)?;
            draw_floats(st, size, name == "randn")
        }
        "random" | "random_sample" | "sample" | "standard_normal" => {
            let a = args.bind(name, &["size"], 0)?;
            draw_floats(st, size_arg(it, &a[0])?, name == "standard_normal")
        }
        "normal" => {
            let a = args.bind("normal", &["loc", "scale", "size"], 0)?;
            let loc = float_of(it, &a[0], 0.0)?;
            let scale = float_of(it, &a[1], 1.0)?;
            if scale < 0.0 {
                return Err(err(ExcType::ValueError, "scale < 0"));
            }
            let size = size_arg(it, &a[2])?;
            let vals = (0..count(&size))
                .map(|_| loc + scale * st.0.borrow_mut().gauss())
                .collect();
            sized_result(vals, size, DType::Float64)
        }
        "uniform" => {
            let a = args.bind("uniform", &["low", "high", "size"], 0)?;
            let lo = float_of(it, &a[0], 0.0)?;
            let hi = float_of(it, &a[1], 1.0)?;
            let size = size_arg(it, &a[2])?;
            let range = hi - lo;
            let vals = (0..count(&size))
                .map(|_| lo + range * st.0.borrow_mut().double())
                .collect();
            sized_result(vals, size, DType::Float64)
        }
        "randint" => {
            let a = args.bind("randint", &["low", "high", "size", "dtype"], 1)?;
            let x = it.index_int(a[0].as_ref().unwrap())?;
            let (lo, hi) = match &a[1] {
                None | Some(Value::None) => (0, x),
                Some(v) => (x, it.index_int(v)?),
            };
            if lo >= hi {
                return Err(err(ExcType::ValueError, "low >= high"));
            }
            let size = size_arg(it, &a[2])?;
            let rng = (hi - 1).wrapping_sub(lo) as u64;
            let vals = (0..count(&size))
                .map(|_| st.0.borrow_mut().bounded(lo, rng) as f64)
                .collect();
            sized_result(vals, size, DType::Int64)
        }
        "permutation" => {
            let a = args.bind("permutation", &["x"], 1)?;
            let x = a[0].as_ref().unwrap();
            let arr = if let Value::Int(n) = x {
                super::array::ensure_room(&[*n.max(&0) as usize], DType::Int64, 16)?;
                arange(*n)?
            } else {
                let src = super::funcs::as_array(it, x)?;
                src.copy_as(src.dtype())?
            };
            shuffle_rows(&st.0, &arr)?;
            Ok(Value::native(arr))
        }
        "shuffle" => {
            let a = args.bind("shuffle", &["x"], 1)?;
            let x = a[0].as_ref().unwrap();
            if let Some(arr) = x.downcast::<NdArray>() {
                shuffle_rows(&st.0, arr)?;
            } else if let Value::List(l) = x {
                let n = l.borrow().len();
                for i in (1..n).rev() {
                    let j = st.0.borrow_mut().interval(i as u64) as usize;
                    l.borrow_mut().swap(i, j);
                }
            }
            Ok(Value::None)
        }
        "choice" => {
            let a = args.bind("choice", &["a", "size", "replace", "p"], 1)?;
            let src = a[0].as_ref().unwrap();
            let pool = if let Value::Int(n) = src {
                arange(*n)?
            } else {
                super::funcs::as_array(it, src)?
            };
            let pop = pool.size();
            if pop == 0 {
                return Err(err(
                    ExcType::ValueError,
                    "'a' cannot be empty unless no samples are taken",
                ));
            }
            let size = size_arg(it, &a[1])?;
            let replace = match &a[2] {
                Some(v) => it.truthy(v)?,
                None => true,
            };
            let n = count(&size);
            let vals = pool.values()?;
            let idx: Vec<usize> = if let Some(p) = a[3].as_ref().filter(|v| !v.is_none()) {
                if !replace {
                    return Err(err(
                        ExcType::NotImplementedError,
                        "cudatutor's np.random.choice with p= and replace=False",
                    ));
                }
                let p = super::ops::operand(it, p)?.vals;
                let mut cdf = Vec::with_capacity(p.len());
                let mut s = 0.0;
                for &x in &p {
                    s += x;
                    cdf.push(s);
                }
                let total = s;
                for c in cdf.iter_mut() {
                    *c /= total;
                }
                (0..n)
                    .map(|_| {
                        let u = st.0.borrow_mut().double();
                        cdf.iter().position(|&c| c > u).unwrap_or(pop - 1)
                    })
                    .collect()
            } else if replace {
                (0..n)
                    .map(|_| st.0.borrow_mut().bounded(0, (pop - 1) as u64) as usize)
                    .collect()
            } else {
                if n > pop {
                    return Err(sample_larger_than_population("'replace=False'"));
                }
                let mut perm: Vec<usize> = (0..pop).collect();
                for i in (1..pop).rev() {
                    let j = st.0.borrow_mut().interval(i as u64) as usize;
                    perm.swap(i, j);
                }
                perm.truncate(n);
                perm
            };
            let picked: Vec<f64> = idx.iter().map(|&i| vals[i]).collect();
            sized_result(picked, size, pool.dtype())
        }
        "get_state" => Err(err(
            ExcType::NotImplementedError,
            "cudatutor's numpy does not support RandomState.get_state",
        )),
        _ => Err(err(
            ExcType::AttributeError,
            format!("'RandomState' object has no attribute '{name}'"),
        )),
    }
}

const METHODS: &[&str] = &[
    "seed",
    "rand",
    "randn",
    "random",
    "random_sample",
    "sample",
    "standard_normal",
    "normal",
    "uniform",
    "randint",
    "permutation",
    "shuffle",
    "choice",
    "get_state",
];

generator_object!(
    RandomState,
    "RandomState",
    "RandomState(MT19937)",
    METHODS,
    call
);

/// `np.random`: the functions of one global RandomState, and the class.
pub(crate) fn module() -> Value {
    let m = Module::new("numpy.random");
    let global = Value::native(RandomState(RefCell::new(State::new(0))));
    for &name in METHODS {
        let g = global.clone();
        m.add_fn(name, move |it, args| {
            let st = state_of(&g).expect("a RandomState");
            call(it, st, name, args)
        });
    }
    m.add_fn("RandomState", |it, args| {
        let a = args.bind("RandomState", &["seed"], 0)?;
        let st = RandomState(RefCell::new(State::new(0)));
        call(
            it,
            &st,
            "seed",
            Args::new(a[0].clone().into_iter().collect()),
        )?;
        Ok(Value::native(st))
    });
    m.add_fn("default_rng", super::generator::default_rng);
    m.into_value()
}

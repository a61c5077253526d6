//! PyTorch's CPU random streams, bit for bit: replays every case recorded by
//! scripts/record-random.py (real torch, once per ATen CPU capability) against
//! engine::random and requires identical bits, seeds, states and error messages.

use std::collections::HashMap;
use std::path::Path;

use cudatutor::engine::random::{
    self as random, CpuCapability, CpuGenerator, ElementsMut, MultinomialInput, Probabilities,
    half, init,
};
use serde_json::{Value, json};

const FAMILIES: [&str; 6] = [
    "seeds",
    "uniform",
    "normal",
    "integers",
    "distributions",
    "init",
];

/// One tensor's values as the recorder encodes them: float bit patterns, signed integers.
#[derive(Debug, Clone)]
enum Vals {
    F32(Vec<f32>),
    F64(Vec<f64>),
    F16(Vec<u16>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I16(Vec<i16>),
    I8(Vec<i8>),
    U8(Vec<u8>),
}

impl Vals {
    fn zeros(dtype: &str, n: usize) -> Vals {
        match dtype {
            "float32" => Vals::F32(vec![0.0; n]),
            "float64" => Vals::F64(vec![0.0; n]),
            "float16" => Vals::F16(vec![0; n]),
            "int64" => Vals::I64(vec![0; n]),
            "int32" => Vals::I32(vec![0; n]),
            "int16" => Vals::I16(vec![0; n]),
            "int8" => Vals::I8(vec![0; n]),
            "uint8" => Vals::U8(vec![0; n]),
            "bool" => Vals::Bool(vec![false; n]),
            other => panic!("unknown dtype {other}"),
        }
    }

    fn elements(&mut self) -> ElementsMut<'_> {
        match self {
            Vals::F32(v) => ElementsMut::F32(v),
            Vals::F64(v) => ElementsMut::F64(v),
            Vals::F16(v) => ElementsMut::F16(v),
            Vals::I64(v) => ElementsMut::I64(v),
            Vals::I32(v) => ElementsMut::I32(v),
            Vals::I16(v) => ElementsMut::I16(v),
            Vals::I8(v) => ElementsMut::I8(v),
            Vals::U8(v) => ElementsMut::U8(v),
            Vals::Bool(v) => ElementsMut::Bool(v),
        }
    }

    /// The recorder's encoding (u64 bit patterns for floats, i64 for integers).
    fn encode(&self) -> Value {
        let vals: Vec<i128> = match self {
            Vals::F32(v) => v.iter().map(|x| x.to_bits() as i128).collect(),
            Vals::F64(v) => v.iter().map(|x| x.to_bits() as i128).collect(),
            Vals::F16(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::I64(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::I32(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::I16(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::I8(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::U8(v) => v.iter().map(|x| *x as i128).collect(),
            Vals::Bool(v) => v.iter().map(|x| *x as i128).collect(),
        };
        encode_ints(&vals)
    }
}

fn num(v: i128) -> Value {
    if v < 0 {
        json!(v as i64)
    } else {
        json!(v as u64)
    }
}

fn encode_ints(vals: &[i128]) -> Value {
    if vals.len() > 1000 {
        // The recorder's weighted sum: v_i * (2i + 1) * golden-ratio constant, mod 2^64.
        let h = vals.iter().enumerate().fold(0u64, |h, (i, v)| {
            let k = (2 * i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h.wrapping_add((*v as u64).wrapping_mul(k))
        });
        let head: Vec<Value> = vals[..8].iter().map(|v| num(*v)).collect();
        let tail: Vec<Value> = vals[vals.len() - 8..].iter().map(|v| num(*v)).collect();
        return json!({"len": vals.len(), "head": head, "tail": tail, "wsum64": h});
    }
    Value::Array(vals.iter().map(|v| num(*v)).collect())
}

fn err(e: random::RandomError) -> Value {
    json!({ "error": format!("{}: {}", e.kind, e.message) })
}

struct Replay {
    default: CpuGenerator,
    gens: HashMap<u64, CpuGenerator>,
    cap: CpuCapability,
    done: Vec<Value>,
}

/// A float of an op: recorded as its Python repr string (parsed exactly here), or an int.
fn float(v: &Value) -> f64 {
    match v {
        Value::String(t) => t.parse().unwrap_or_else(|_| panic!("not a float: {t}")),
        other => other
            .as_f64()
            .unwrap_or_else(|| panic!("not a number: {other}")),
    }
}
fn floats(v: &Value) -> Vec<f64> {
    v.as_array().expect("a list").iter().map(float).collect()
}
fn f(op: &Value, key: &str) -> f64 {
    float(&op[key])
}
fn u(op: &Value, key: &str) -> usize {
    op[key].as_u64().unwrap_or_else(|| panic!("{key} in {op}")) as usize
}
/// A list of sizes of an op (a kernel, a shape).
fn sizes(op: &Value, key: &str) -> Vec<usize> {
    op[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in {op}"))
        .iter()
        .map(|v| v.as_u64().unwrap_or_else(|| panic!("{key} in {op}")) as usize)
        .collect()
}
fn s<'a>(op: &'a Value, key: &str) -> &'a str {
    op[key].as_str().unwrap_or_else(|| panic!("{key} in {op}"))
}

/// A Python int (or float/bool, as `int(seed)` takes them) from JSON.
fn py_int(v: &Value) -> i128 {
    if let Some(i) = v.as_i64() {
        return i as i128;
    }
    if let Some(u) = v.as_u64() {
        return u as i128;
    }
    if let Some(b) = v.as_bool() {
        return b as i128;
    }
    if let Some(t) = v.as_str() {
        // Big ints are recorded as digit strings, floats (`manual_seed(3.7)`) as reprs.
        return t.parse().unwrap_or_else(|_| float(v).trunc() as i128);
    }
    if let Some(f) = v.as_f64() {
        // 2**64 and friends arrive as floats in serde_json; they are exact integers.
        return f.trunc() as i128;
    }
    panic!("not an int: {v}")
}

fn probabilities(values: &[f64], dtype: &str) -> (Vec<f32>, Vec<f64>, Vec<u16>) {
    match dtype {
        "float32" => (values.iter().map(|v| *v as f32).collect(), vec![], vec![]),
        "float64" => (vec![], values.to_vec(), vec![]),
        "float16" => (
            vec![],
            vec![],
            values.iter().map(|v| half::f64_to_f16_bits(*v)).collect(),
        ),
        other => panic!("probabilities as {other}"),
    }
}

fn probs_of<'a>(dtype: &str, p32: &'a [f32], p64: &'a [f64], p16: &'a [u16]) -> Probabilities<'a> {
    match dtype {
        "float32" => Probabilities::F32(p32),
        "float64" => Probabilities::F64(p64),
        _ => Probabilities::F16(p16),
    }
}

fn flatten(v: &Value, out: &mut Vec<f64>, sizes: &mut Vec<usize>, depth: usize) {
    match v {
        Value::Array(items) => {
            if sizes.len() == depth {
                sizes.push(items.len());
            }
            for it in items {
                flatten(it, out, sizes, depth + 1);
            }
        }
        other => out.push(float(other)),
    }
}

impl Replay {
    fn gen_for(&mut self, op: &Value) -> &mut CpuGenerator {
        match op.get("gen").and_then(|g| g.as_u64()) {
            Some(id) => self.gens.get_mut(&id).expect("generator created first"),
            None => &mut self.default,
        }
    }

    fn fill(
        &mut self,
        op: &Value,
        f: impl FnOnce(&mut CpuGenerator, ElementsMut, CpuCapability) -> random::Result<()>,
    ) -> Value {
        let mut v = Vals::zeros(s(op, "dtype"), u(op, "n"));
        let cap = self.cap;
        match f(self.gen_for(op), v.elements(), cap) {
            Ok(()) => v.encode(),
            Err(e) => err(e),
        }
    }

    fn run(&mut self, op: &Value) -> Value {
        match s(op, "op") {
            "manual_seed" => match random::seed_from_int(py_int(&op["seed"])) {
                Ok(seed) => {
                    self.default.manual_seed(seed);
                    json!(seed)
                }
                Err(e) => {
                    let (kind, msg) = e.python_error();
                    json!({ "error": format!("{kind}: {msg}") })
                }
            },
            "initial_seed" => json!(self.gen_for(op).initial_seed()),
            "gen_new" => {
                let mut g = CpuGenerator::default();
                if let Some(seed) = op.get("seed") {
                    g.manual_seed(random::seed_from_int(py_int(seed)).expect("valid seed"));
                }
                let seed = g.initial_seed();
                self.gens.insert(op["id"].as_u64().unwrap_or(0), g);
                json!(seed)
            }
            "gen_seed" => {
                let seed = random::seed_from_int(py_int(&op["seed"])).expect("valid seed");
                let g = self.gens.get_mut(&(u(op, "id") as u64)).expect("generator");
                g.manual_seed(seed);
                json!(seed)
            }
            "get_state" => {
                let bytes = self.gen_for(op).get_state();
                json!(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
            }
            "set_state" | "set_state_bytes" => {
                let hex = if s(op, "op") == "set_state" {
                    self.done[u(op, "from")]
                        .as_str()
                        .expect("a saved state")
                        .to_string()
                } else {
                    s(op, "hex").to_string()
                };
                let bytes: Vec<u8> = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
                    .collect();
                match self.default.set_state(&bytes) {
                    Ok(()) => Value::Null,
                    Err(m) => json!({ "error": format!("RuntimeError: {m}") }),
                }
            }
            "rand" => self.fill(op, |g, e, c| random::uniform_(g, e, 0.0, 1.0, c)),
            "uniform" => {
                let (a, b) = (f(op, "from"), f(op, "to"));
                self.fill(op, |g, e, c| random::uniform_(g, e, a, b, c))
            }
            "randn" => self.fill(op, |g, e, c| random::normal_(g, e, 0.0, 1.0, true, c)),
            "normal" => {
                let (m, sd) = (f(op, "mean"), f(op, "std"));
                let contiguous = op["contiguous"].as_bool().unwrap_or(true);
                self.fill(op, |g, e, c| random::normal_(g, e, m, sd, contiguous, c))
            }
            "randint" => {
                let (lo, hi) = (op["low"].as_i64().unwrap(), op["high"].as_i64().unwrap());
                self.fill(op, |g, e, _| random::random_from_to_(g, e, lo, Some(hi)))
            }
            "normal_tensors" => self.normal_tensors(op),
            "dataloader" => {
                // iter(DataLoader): one int64 random_() for the base seed, then (shuffling)
                // another seeds a fresh generator that randperm draws from.
                let n = u(op, "n");
                let mut base = [0i64];
                random::random_(&mut self.default, ElementsMut::I64(&mut base));
                if !op["shuffle"].as_bool().unwrap() {
                    return Vals::I64((0..n as i64).collect()).encode();
                }
                let mut seed = [0i64];
                random::random_(&mut self.default, ElementsMut::I64(&mut seed));
                let mut g = CpuGenerator::new(seed[0] as u64);
                Vals::I64(random::randperm(&mut g, n)).encode()
            }
            "random_from_to" => {
                let from = op["from"].as_i64().unwrap();
                let to = op["to"].as_i64();
                self.fill(op, |g, e, _| random::random_from_to_(g, e, from, to))
            }
            "random" => self.fill(op, |g, e, _| {
                random::random_(g, e);
                Ok(())
            }),
            "randperm" => {
                let n = u(op, "n");
                let perm = random::randperm(self.gen_for(op), n);
                match op.get("dtype").and_then(|d| d.as_str()) {
                    Some("float32") => Vals::F32(perm.iter().map(|v| *v as f32).collect()).encode(),
                    _ => Vals::I64(perm).encode(),
                }
            }
            "bernoulli_scalar" => {
                let p = f(op, "p");
                self.fill(op, |g, e, _| random::bernoulli_scalar_(g, e, p))
            }
            "bernoulli_tensor" => {
                let values = floats(&op["probs"]);
                let pdt = s(op, "p_dtype");
                let (p32, p64, p16) = probabilities(&values, pdt);
                let dtype = op["dtype"].as_str().unwrap_or(pdt);
                let mut out = Vals::zeros(dtype, values.len());
                let probs = probs_of(pdt, &p32, &p64, &p16);
                match random::bernoulli_tensor_(self.gen_for(op), out.elements(), probs) {
                    Ok(()) => out.encode(),
                    Err(e) => err(e),
                }
            }
            "exponential" => {
                let l = f(op, "lambd");
                self.fill(op, |g, e, _| random::exponential_(g, e, l))
            }
            "geometric" => {
                let p = f(op, "p");
                self.fill(op, |g, e, _| random::geometric_(g, e, p))
            }
            "log_normal" => {
                let (m, sd) = (f(op, "mean"), f(op, "std"));
                self.fill(op, |g, e, c| random::log_normal_(g, e, m, sd, c))
            }
            "cauchy" => {
                let (m, sg) = (f(op, "median"), f(op, "sigma"));
                self.fill(op, |g, e, _| random::cauchy_(g, e, m, sg))
            }
            "multinomial" => {
                let mut values = Vec::new();
                let mut sizes = Vec::new();
                flatten(&op["probs"], &mut values, &mut sizes, 0);
                let dtype = s(op, "dtype");
                let (p32, p64, p16) = probabilities(&values, dtype);
                let input = MultinomialInput {
                    probs: probs_of(dtype, &p32, &p64, &p16),
                    sizes: &sizes,
                };
                let ns = op["num_samples"].as_i64().unwrap();
                let rep = op["replacement"].as_bool().unwrap();
                match random::multinomial(self.gen_for(op), input, ns, rep) {
                    Ok(v) => Vals::I64(v).encode(),
                    Err(e) => err(e),
                }
            }
            "dropout" => self.dropout(op),
            "linear" => {
                let (i, o) = (u(op, "in"), u(op, "out"));
                self.module_default(&[o, i], op["bias"].as_bool().unwrap().then_some(o))
            }
            "conv" => {
                let (cin, cout, groups) = (u(op, "in"), u(op, "out"), u(op, "groups"));
                let kernel = sizes(op, "kernel");
                let mut shape = if s(op, "kind").starts_with("conv_transpose") {
                    vec![cin, cout / groups]
                } else {
                    vec![cout, cin / groups]
                };
                shape.extend(kernel);
                self.module_default(&shape, op["bias"].as_bool().unwrap().then_some(cout))
            }
            "embedding" => {
                let (num, dim) = (u(op, "num"), u(op, "dim"));
                let mut w = vec![0f32; num * dim];
                init::embedding_default_(&mut self.default, ElementsMut::F32(&mut w), self.cap)
                    .expect("embedding init");
                if let Some(p) = op["padding_idx"].as_u64() {
                    w[p as usize * dim..(p as usize + 1) * dim].fill(0.0);
                }
                json!([Vals::F32(w).encode()])
            }
            "rnn" => {
                let (input, hidden, layers) = (u(op, "input"), u(op, "hidden"), u(op, "layers"));
                let gates = match s(op, "kind") {
                    "LSTM" => 4,
                    "GRU" => 3,
                    _ => 1,
                };
                let mut params: Vec<Vec<f32>> = Vec::new();
                for layer in 0..layers {
                    let inp = if layer == 0 { input } else { hidden };
                    params.push(vec![0.0; gates * hidden * inp]);
                    params.push(vec![0.0; gates * hidden * hidden]);
                    params.push(vec![0.0; gates * hidden]);
                    params.push(vec![0.0; gates * hidden]);
                }
                let views: Vec<ElementsMut> =
                    params.iter_mut().map(|p| ElementsMut::F32(p)).collect();
                init::rnn_default_(&mut self.default, views, hidden, self.cap).expect("rnn init");
                Value::Array(params.into_iter().map(|p| Vals::F32(p).encode()).collect())
            }
            "init" => self.nn_init(op),
            other => panic!("op {other} has no replay"),
        }
    }

    fn normal_tensors(&mut self, op: &Value) -> Value {
        let list = |v: &Value| -> Option<Vec<f64>> { v.is_array().then(|| floats(v)) };
        let (m, sd) = (list(&op["mean"]), list(&op["std"]));
        if m.is_none() && sd.is_none() {
            // Two floats: torch.normal(m, s, size) is normal_(m, s).
            let (m, sd) = (f(op, "mean"), f(op, "std"));
            return self.fill(op, |g, e, c| random::normal_(g, e, m, sd, true, c));
        }
        let to32 =
            |v: &Option<Vec<f64>>| -> Vec<f32> { v.iter().flatten().map(|x| *x as f32).collect() };
        let (m32, s32) = (to32(&m), to32(&sd));
        let (m64, s64) = (
            m.clone().unwrap_or_default(),
            sd.clone().unwrap_or_default(),
        );
        let single = s(op, "dtype") == "float32";
        let mp = match m {
            None => random::NormalParam::Scalar(f(op, "mean")),
            Some(_) if single => random::NormalParam::F32(&m32),
            Some(_) => random::NormalParam::F64(&m64),
        };
        let sp = match sd {
            None => random::NormalParam::Scalar(f(op, "std")),
            Some(_) if single => random::NormalParam::F32(&s32),
            Some(_) => random::NormalParam::F64(&s64),
        };
        self.fill(op, |g, e, c| random::normal_tensors_(g, e, mp, sp, c))
    }

    fn module_default(&mut self, weight_shape: &[usize], bias: Option<usize>) -> Value {
        let mut w = vec![0f32; weight_shape.iter().product()];
        let mut b = vec![0f32; bias.unwrap_or(0)];
        init::linear_or_conv_default_(
            &mut self.default,
            ElementsMut::F32(&mut w),
            weight_shape,
            bias.map(|_| ElementsMut::F32(&mut b)),
            self.cap,
        )
        .expect("module init");
        let mut out = vec![Vals::F32(w).encode()];
        if bias.is_some() {
            out.push(Vals::F32(b).encode());
        }
        Value::Array(out)
    }

    fn dropout(&mut self, op: &Value) -> Value {
        let n = u(op, "n");
        let p = f(op, "p");
        let dtype = s(op, "dtype");
        if let Err(e) = random::check_dropout_p(p) {
            return err(e);
        }
        // The recorded input: (arange(n) % 11 - 5) in the dtype.
        let x: Vec<f64> = (0..n).map(|i| (i % 11) as f64 - 5.0).collect();
        let training = op["training"].as_bool().unwrap();
        let mut noise = Vals::zeros(dtype, n);
        let draws = training && p > 0.0 && p < 1.0;
        if draws {
            random::dropout_noise_(&mut self.default, noise.elements(), p).expect("dropout noise");
        }
        // p == 1 multiplies by a zero scalar (x * 0: -0.0 for negative x).
        let scale = |i: usize| -> f64 {
            if !training || p == 0.0 {
                1.0
            } else if p == 1.0 {
                0.0
            } else {
                match &noise {
                    Vals::F32(v) => v[i] as f64,
                    Vals::F64(v) => v[i],
                    Vals::F16(v) => half::f16_bits_to_f32(v[i]) as f64,
                    _ => unreachable!(),
                }
            }
        };
        match dtype {
            "float32" => {
                Vals::F32((0..n).map(|i| x[i] as f32 * scale(i) as f32).collect()).encode()
            }
            "float64" => Vals::F64((0..n).map(|i| x[i] * scale(i)).collect()).encode(),
            _ => Vals::F16(
                (0..n)
                    .map(|i| half::f32_to_f16_bits(x[i] as f32 * scale(i) as f32))
                    .collect(),
            )
            .encode(),
        }
    }

    fn nn_init(&mut self, op: &Value) -> Value {
        let shape = sizes(op, "shape");
        let kw = &op["kwargs"];
        let kf = |k: &str, d: f64| kw.get(k).map(float).unwrap_or(d);
        let mut w = vec![0f32; shape.iter().product()];
        let g = &mut self.default;
        let cap = self.cap;
        let mode =
            || init::FanMode::parse(kw.get("mode").and_then(|m| m.as_str()).unwrap_or("fan_in"));
        let nonlin = kw
            .get("nonlinearity")
            .and_then(|m| m.as_str())
            .unwrap_or("leaky_relu");
        let r: random::Result<()> = match s(op, "fn") {
            "trunc_normal_" => init::trunc_normal_f32_(
                g,
                &mut w,
                kf("mean", 0.0),
                kf("std", 1.0),
                kf("a", -2.0),
                kf("b", 2.0),
                cap,
            )
            .map(|_| ()),
            "zeros_" => {
                w.fill(0.0);
                Ok(())
            }
            "ones_" => {
                w.fill(1.0);
                Ok(())
            }
            "constant_" => {
                w.fill(kf("val", 0.0) as f32);
                Ok(())
            }
            name => {
                let t = ElementsMut::F32(&mut w);
                match name {
                    "kaiming_uniform_" => mode()
                        .and_then(|m| {
                            init::kaiming_uniform_(g, t, &shape, kf("a", 0.0), m, nonlin, cap)
                        })
                        .map(|_| ()),
                    "kaiming_normal_" => mode()
                        .and_then(|m| {
                            init::kaiming_normal_(g, t, &shape, kf("a", 0.0), m, nonlin, cap)
                        })
                        .map(|_| ()),
                    "xavier_uniform_" => init::xavier_uniform_(g, t, &shape, kf("gain", 1.0), cap),
                    "xavier_normal_" => init::xavier_normal_(g, t, &shape, kf("gain", 1.0), cap),
                    "uniform_" => random::uniform_(g, t, kf("a", 0.0), kf("b", 1.0), cap),
                    "normal_" => random::normal_(g, t, kf("mean", 0.0), kf("std", 1.0), true, cap),
                    other => panic!("init {other}"),
                }
            }
        };
        match r {
            Ok(()) => Vals::F32(w).encode(),
            Err(e) => err(e),
        }
    }
}

/// A short description of where two results first differ.
fn first_difference(want: &Value, got: &Value) -> String {
    match (want, got) {
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return format!("length {} vs {}", a.len(), b.len());
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    return format!("at [{i}]: want {x}, got {y}");
                }
            }
            "equal".into()
        }
        _ => format!("want {want}, got {got}"),
    }
}

/// No replayed result differs from PyTorch's; else the first 40 differences, and how many.
fn assert_none_differ(failures: &[String], checked: usize, what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {checked} {what} differ from PyTorch:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn cpu_streams_match_recorded_pytorch() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/random");
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for family in FAMILIES {
        let text = std::fs::read_to_string(dir.join(format!("{family}.json")))
            .unwrap_or_else(|e| panic!("{family}.json: {e}"));
        let doc: Value = serde_json::from_str(&text).expect("fixture JSON");
        for case in doc["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().unwrap_or("?");
            let ops = case["ops"].as_array().expect("ops");
            let base = &case["results"]["avx512"];
            for (cap_name, cap) in [
                ("avx512", CpuCapability::Avx2),
                ("avx2", CpuCapability::Avx2),
                ("default", CpuCapability::Default),
            ] {
                let want = match &case["results"][cap_name] {
                    Value::Null => base,
                    w => w,
                };
                let mut replay = Replay {
                    default: CpuGenerator::default(),
                    gens: HashMap::new(),
                    cap,
                    done: Vec::new(),
                };
                for (i, op) in ops.iter().enumerate() {
                    let got = replay.run(op);
                    let w = &want[i];
                    checked += 1;
                    if got != *w {
                        failures.push(format!(
                            "{family} / {name} / {cap_name} / op {i} {}: {}",
                            op["op"],
                            first_difference(w, &got)
                        ));
                    }
                    replay.done.push(got);
                }
            }
        }
    }
    assert!(checked > 5000, "only {checked} results checked");
    assert_none_differ(&failures, checked, "results");
}

/// The CUDA streams, replayed from tests/fixtures/random/cuda.json, recorded on a GPU machine
/// (`scripts/record-random.py --device cuda`, run by scripts/gpu-check.sh: PyTorch 2.11+cu130
/// on an H200, 2026-12-04; the file names its torch version and device). The replay needs no
/// GPU: it runs the host mirror of PyTorch's CUDA generator that the sim draws from.
#[test]
fn cuda_streams_match_recorded_pytorch() {
    use random::CudaGenerator;
    use random::cuda::{self, DeviceShape};

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/random/cuda.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (record it on a GPU machine)", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("fixture JSON");
    let device = DeviceShape {
        sm_count: doc["device"]["sm_count"].as_u64().expect("sm_count") as u32,
        max_threads_per_sm: doc["device"]["max_threads_per_sm"]
            .as_u64()
            .expect("threads") as u32,
    };
    let (mut checked, mut approximate) = (0usize, 0usize);
    let mut failures = Vec::new();
    for case in doc["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap_or("?");
        let want = &case["results"]["cuda"];
        let mut cpu = Replay {
            default: CpuGenerator::default(),
            gens: HashMap::new(),
            cap: CpuCapability::Avx2,
            done: Vec::new(),
        };
        let mut gpu = CudaGenerator::default();
        let mut gpu_gens: HashMap<u64, CudaGenerator> = HashMap::new();
        for (i, op) in case["ops"].as_array().expect("ops").iter().enumerate() {
            let on_cuda = op.get("device").and_then(|d| d.as_str()) == Some("cuda")
                || op
                    .get("gen")
                    .is_some_and(|g| gpu_gens.contains_key(&g.as_u64().unwrap_or(0)));
            let got = if !on_cuda {
                let v = cpu.run(op);
                if s(op, "op") == "manual_seed"
                    && let Some(seed) = v.as_u64()
                {
                    gpu.manual_seed(seed);
                }
                v
            } else {
                // `gen_new` names the generator it creates by `id`; later ops name it by `gen`.
                let named = op
                    .get("gen")
                    .or_else(|| (s(op, "op") == "gen_new").then(|| op.get("id")).flatten());
                let g = match named.and_then(|g| g.as_u64()) {
                    Some(id) => gpu_gens.entry(id).or_default(),
                    None => &mut gpu,
                };
                let fill = |g: &mut CudaGenerator,
                            f: &dyn Fn(&mut CudaGenerator, ElementsMut) -> random::Result<()>|
                 -> Value {
                    let mut v = Vals::zeros(s(op, "dtype"), u(op, "n"));
                    match f(g, v.elements()) {
                        Ok(()) => v.encode(),
                        Err(e) => err(e),
                    }
                };
                match s(op, "op") {
                    "gen_new" => json!(g.initial_seed()),
                    "initial_seed" => json!(g.initial_seed()),
                    "get_state" => {
                        json!(
                            g.get_state()
                                .iter()
                                .map(|b| format!("{b:02x}"))
                                .collect::<String>()
                        )
                    }
                    "rand" => fill(g, &|g, e| cuda::uniform_(g, e, 0.0, 1.0, device)),
                    "uniform" => {
                        let (a, b) = (f(op, "from"), f(op, "to"));
                        fill(g, &|g, e| cuda::uniform_(g, e, a, b, device))
                    }
                    "randn" => fill(g, &|g, e| cuda::normal_(g, e, 0.0, 1.0, device)),
                    "normal" => {
                        let (m, sd) = (f(op, "mean"), f(op, "std"));
                        fill(g, &|g, e| cuda::normal_(g, e, m, sd, device))
                    }
                    "randint" => {
                        let (lo, hi) = (op["low"].as_i64().unwrap(), op["high"].as_i64().unwrap());
                        fill(g, &|g, e| cuda::random_from_to_(g, e, lo, Some(hi), device))
                    }
                    "random" => fill(g, &|g, e| {
                        cuda::random_(g, e, device);
                        Ok(())
                    }),
                    "bernoulli_scalar" => {
                        let p = f(op, "p");
                        fill(g, &|g, e| cuda::bernoulli_scalar_(g, e, p, device))
                    }
                    "exponential" => {
                        let l = f(op, "lambd");
                        fill(g, &|g, e| cuda::exponential_(g, e, l, device))
                    }
                    "bernoulli_tensor" => {
                        let values = floats(&op["probs"]);
                        let p32: Vec<f32> = values.iter().map(|v| *v as f32).collect();
                        let mut out = Vals::zeros("float32", values.len());
                        match cuda::bernoulli_tensor_(g, out.elements(), Probabilities::F32(&p32)) {
                            Ok(()) => out.encode(),
                            Err(e) => err(e),
                        }
                    }
                    "dropout" => {
                        let n = u(op, "n");
                        let x: Vec<f32> = (0..n).map(|i| (i % 11) as f32 - 5.0).collect();
                        match cuda::dropout_(g, &x, f(op, "p"), true, device) {
                            Ok(d) => Vals::F32(d.output).encode(),
                            Err(e) => err(e),
                        }
                    }
                    "linear" => {
                        let (i, o) = (u(op, "in"), u(op, "out"));
                        let bound = 3f64.sqrt()
                            * init::kaiming_std(
                                &[o, i],
                                5f64.sqrt(),
                                init::FanMode::FanIn,
                                "leaky_relu",
                            )
                            .expect("std");
                        let mut w = vec![0f32; o * i];
                        cuda::uniform_(g, ElementsMut::F32(&mut w), -bound, bound, device)
                            .expect("w");
                        let bb = init::bias_bound(i);
                        let mut b = vec![0f32; o];
                        cuda::uniform_(g, ElementsMut::F32(&mut b), -bb, bb, device).expect("b");
                        json!([Vals::F32(w).encode(), Vals::F32(b).encode()])
                    }
                    other => panic!("cuda op {other} has no replay"),
                }
            };
            checked += 1;
            // Normal and exponential draws on a GPU go through its fast `__logf`/`__sincosf`
            // (float32) and libdevice's `log`/`sincospi` (float64); the host mirror uses
            // correctly rounded libm, so those values agree to the bound below, not bit for
            // bit (the layout, counters and offsets are exact: every uniform, integer and
            // Bernoulli value is).
            let gpu_math = matches!(s(op, "op"), "randn" | "normal" | "exponential");
            if got != want[i] {
                if gpu_math && normal_draws_close(&want[i], &got, s(op, "dtype")) {
                    approximate += 1;
                } else {
                    failures.push(format!(
                        "{name} / op {i} {}: {}",
                        op["op"],
                        first_difference(&want[i], &got)
                    ));
                }
            }
            cpu.done.push(got);
        }
    }
    eprintln!(
        "{checked} CUDA results: {} bit for bit, {approximate} normal/exponential draws within the GPU-math bound",
        checked - approximate - failures.len()
    );
    assert!(
        approximate * 5 < checked,
        "{approximate} of {checked} only approximate: more than the normal and exponential draws"
    );
    assert_none_differ(&failures, checked, "CUDA results");
}

/// Normal draws recorded on a GPU (`want`) and the host mirror's (`got`), both as the fixture
/// encodes them (bit patterns, or a summary with the first and last 8 and a hash of all): equal
/// but for the GPU's transcendental functions — float32 within 1e-5 absolute (`__logf` and
/// `__sincosf` are accurate to about 2^-21 absolute), float64 within 1e-13, float16 exact or 1
/// unit in the last place. A summary's hash cannot be compared approximately: its head and
/// tail are, and its length must match.
fn normal_draws_close(want: &Value, got: &Value, dtype: &str) -> bool {
    let value = |bits: u64| -> f64 {
        match dtype {
            "float32" => f32::from_bits(bits as u32) as f64,
            "float64" => f64::from_bits(bits),
            _ => bits as f64,
        }
    };
    let tolerance = match dtype {
        "float32" => 1e-5,
        "float64" => 1e-13,
        _ => 1.0, // float16 compared as bit patterns: one unit in the last place
    };
    let close_arrays = |a: &Value, b: &Value| -> bool {
        match (a.as_array(), b.as_array()) {
            (Some(a), Some(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| match (x.as_u64(), y.as_u64()) {
                            (Some(x), Some(y)) => (value(x) - value(y)).abs() <= tolerance,
                            _ => x == y,
                        })
            }
            _ => a == b,
        }
    };
    match (want, got) {
        (Value::Array(_), Value::Array(_)) => close_arrays(want, got),
        (Value::Object(w), Value::Object(g)) => {
            w.get("len") == g.get("len")
                && close_arrays(&w["head"], &g["head"])
                && close_arrays(&w["tail"], &g["tail"])
        }
        _ => false,
    }
}

/// Runs `cudatutor run` on a script (in a scratch folder), with CUDATUTOR_SEED set or removed;
/// returns its stdout.
fn run_seeded(name: &str, code: &str, seed: Option<&str>) -> String {
    let dir = std::env::temp_dir().join(format!("cudatutor-seed-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("seed.py");
    std::fs::write(&script, code).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    cmd.arg("run").arg(&script).env_remove("CUDATUTOR_SEED");
    if let Some(s) = seed {
        cmd.env("CUDATUTOR_SEED", s);
    }
    let out = cmd.output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const UNSEEDED: &str = "import torch\nprint(torch.initial_seed())\nprint(torch.rand(4).tolist())\nprint(torch.Generator().initial_seed(), torch.cuda.initial_seed())\n";

#[test]
fn a_fresh_run_seeds_the_default_generator_from_os_randomness_as_pytorch_does() {
    let a = run_seeded("fresh-a", UNSEEDED, None);
    let b = run_seeded("fresh-b", UNSEEDED, None);
    // 64 random bits twice: equal only with probability 2^-64
    assert_ne!(a, b, "two unseeded runs printed the same numbers:\n{a}");
    for out in [&a, &b] {
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].parse::<u64>().is_ok(),
            "initial_seed() is not a u64: {out}"
        );
        // torch.Generator() and the CUDA generators keep PyTorch's fixed default
        assert_eq!(lines[2], "67280421310721 67280421310721", "{out}");
    }
}

#[test]
fn cudatutor_seed_pins_the_default_generator_as_manual_seed_would() {
    let pinned = run_seeded("pinned", UNSEEDED, Some("18446744073709551615"));
    let lines: Vec<&str> = pinned.lines().collect();
    assert_eq!(lines[0], "18446744073709551615", "{pinned}");
    let reference = run_seeded(
        "reference",
        "import torch\ntorch.manual_seed(18446744073709551615)\nprint(torch.rand(4).tolist())\n",
        None,
    );
    assert_eq!(lines[1], reference.trim_end(), "{pinned}");
    assert_eq!(
        pinned,
        run_seeded("pinned-again", UNSEEDED, Some("18446744073709551615"))
    );
}

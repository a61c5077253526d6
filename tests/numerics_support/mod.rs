//! Support for tests/numerics_exact.rs: the seeded input generators of
//! scripts/record-numerics.py (the two must stay in step), fixture loading, and bit-for-bit
//! comparison of results with the recorded PyTorch values.

#![allow(dead_code)]

use serde_json::Value;
use std::path::Path;

// the product's own row-major walk, so that a view is read in the order the engine reads it
#[path = "../../src/binding/row_major.rs"]
mod row_major;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Output number `i` (from 1) of splitmix64 started at `seed`.
pub(crate) fn splitmix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(GOLDEN));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unit(z: u64) -> f64 {
    (z >> 40) as f64 * (2f64).powi(-24)
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("spec field {key} missing in {v}"))
}

fn int(v: &Value, key: &str) -> i64 {
    v[key]
        .as_i64()
        .unwrap_or_else(|| panic!("spec field {key} missing in {v}"))
}

/// The values of a generator spec, as f64 (each exactly a value of the spec's dtype).
pub(crate) fn generate(spec: &Value) -> Vec<f64> {
    let dtype = spec["dtype"].as_str().unwrap_or("f32");
    let f32s = dtype == "f32";
    let round = |v: f64| if f32s { v as f32 as f64 } else { v };
    match spec["kind"].as_str().expect("spec kind") {
        "concat" => spec["parts"]
            .as_array()
            .expect("parts")
            .iter()
            .flat_map(|p| {
                let mut p = p.clone();
                p["dtype"] = Value::from(dtype);
                generate(&p)
            })
            .collect(),
        "values" => spec["bits"]
            .as_array()
            .expect("bits")
            .iter()
            .map(|h| {
                let b = u64::from_str_radix(h.as_str().expect("hex"), 16).expect("hex");
                if f32s {
                    f32::from_bits(b as u32) as f64
                } else {
                    f64::from_bits(b)
                }
            })
            .collect(),
        kind => {
            let n = int(spec, "n") as u64;
            let seed = int(spec, "seed") as u64;
            match kind {
                "uniform" => {
                    let (lo, hi) = (num(spec, "lo"), num(spec, "hi"));
                    (1..=n)
                        .map(|i| round(lo + (hi - lo) * unit(splitmix(seed, i))))
                        .collect()
                }
                "normal" => {
                    let (mean, std) = (num(spec, "mean"), num(spec, "std"));
                    (0..n)
                        .map(|k| {
                            let g: f64 = (0..12)
                                .map(|j| unit(splitmix(seed, 12 * k + j + 1)))
                                .sum::<f64>()
                                - 6.0;
                            round(mean + std * g)
                        })
                        .collect()
                }
                "ints" => {
                    let (lo, hi) = (int(spec, "lo"), int(spec, "hi"));
                    let span = (hi - lo + 1) as u64;
                    (1..=n)
                        .map(|i| round(((splitmix(seed, i) >> 11) % span) as f64 + lo as f64))
                        .collect()
                }
                "bits" => {
                    let (emin, emax) = (int(spec, "emin"), int(spec, "emax"));
                    (1..=n)
                        .map(|i| {
                            let z = splitmix(seed, i);
                            let e = (z >> 1) % (emax - emin + 1) as u64;
                            let sign = z & 1;
                            if f32s {
                                let m = (z >> 20) & 0x7F_FFFF;
                                let b = (sign << 31) | ((e + (emin + 127) as u64) << 23) | m;
                                f32::from_bits(b as u32) as f64
                            } else {
                                let m = z >> 12;
                                let b = (sign << 63) | ((e + (emin + 1023) as u64) << 52) | m;
                                f64::from_bits(b)
                            }
                        })
                        .collect()
                }
                other => panic!("unknown generator kind {other}"),
            }
        }
    }
}

pub(crate) fn gen_f32(spec: &Value) -> Vec<f32> {
    generate(spec).into_iter().map(|v| v as f32).collect()
}

pub(crate) fn gen_f64(spec: &Value) -> Vec<f64> {
    generate(spec)
}

pub(crate) fn is_f64(spec: &Value) -> bool {
    spec["dtype"].as_str() == Some("f64")
}

/// A strided view from a case: (shape, strides, offset).
pub(crate) fn view(v: &Value) -> (Vec<usize>, Vec<usize>, usize) {
    let list = |k: &str| -> Vec<usize> {
        v[k].as_array()
            .unwrap_or_else(|| panic!("view.{k}"))
            .iter()
            .map(|x| x.as_u64().expect("usize") as usize)
            .collect()
    };
    (
        list("shape"),
        list("strides"),
        v["offset"].as_u64().unwrap_or(0) as usize,
    )
}

pub(crate) fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_u64().expect("usize") as usize)
                .collect()
        })
        .unwrap_or_default()
}

/// A result as bit patterns (f32 results widen their u32 bits).
pub(crate) enum Bits {
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// An integer result (argmax), compared with the recorded `ints` exactly.
    I64(Vec<i64>),
}

/// A packed hex string of bit patterns, `width` digits each.
pub(crate) fn unpack_hex(packed: &str, width: usize) -> Vec<u64> {
    packed
        .as_bytes()
        .chunks(width)
        .map(|c| u64::from_str_radix(std::str::from_utf8(c).expect("ascii"), 16).expect("hex"))
        .collect()
}

impl Bits {
    fn width(&self) -> usize {
        match self {
            Bits::F32(_) => 8,
            Bits::F64(_) | Bits::I64(_) => 16,
        }
    }
    fn words(&self) -> Vec<u64> {
        match self {
            Bits::F32(v) => v.iter().map(|x| x.to_bits() as u64).collect(),
            Bits::F64(v) => v.iter().map(|x| x.to_bits()).collect(),
            Bits::I64(v) => v.iter().map(|&x| x as u64).collect(),
        }
    }
    /// Whether element `i` is a NaN (an integer never is).
    fn is_nan_at(&self, i: usize) -> bool {
        match self {
            Bits::F32(v) => v[i].is_nan(),
            Bits::F64(v) => v[i].is_nan(),
            Bits::I64(_) => false,
        }
    }
    /// The bit patterns with every NaN replaced by the canonical quiet NaN (for the hash).
    fn canonical_words(&self) -> Vec<u64> {
        let quiet_nan = match self {
            Bits::F32(_) => 0x7fc0_0000,
            Bits::F64(_) | Bits::I64(_) => 0x7ff8_0000_0000_0000,
        };
        let mut words = self.words();
        for (i, word) in words.iter_mut().enumerate() {
            if self.is_nan_at(i) {
                *word = quiet_nan;
            }
        }
        words
    }
    fn both_nan(&self, i: usize, want: u64) -> bool {
        match self {
            Bits::F32(v) => v[i].is_nan() && f32::from_bits(want as u32).is_nan(),
            Bits::F64(v) => v[i].is_nan() && f64::from_bits(want).is_nan(),
            Bits::I64(_) => false,
        }
    }
    fn show(&self, i: usize) -> String {
        match self {
            Bits::F32(v) => format!("{:e} ({:08x})", v[i], v[i].to_bits()),
            Bits::F64(v) => format!("{:e} ({:016x})", v[i], v[i].to_bits()),
            Bits::I64(v) => format!("{}", v[i]),
        }
    }
    fn ulps(&self, i: usize, want: u64) -> i64 {
        match self {
            Bits::F32(v) => ordered32(v[i].to_bits()) - ordered32(want as u32),
            Bits::F64(v) => ordered64(v[i].to_bits()).saturating_sub(ordered64(want)),
            Bits::I64(v) => v[i] - want as i64,
        }
    }
}

fn ordered32(b: u32) -> i64 {
    if b & 0x8000_0000 != 0 {
        -((b & 0x7FFF_FFFF) as i64)
    } else {
        b as i64
    }
}

fn ordered64(b: u64) -> i64 {
    if b & (1 << 63) != 0 {
        -((b & !(1 << 63)) as i64)
    } else {
        b as i64
    }
}

/// The keyed hash of record-numerics.py: sum of (word + 1) * key_i mod 2^64.
pub(crate) fn keyed_hash(words: &[u64]) -> u64 {
    words.iter().enumerate().fold(0u64, |h, (i, w)| {
        h.wrapping_add(
            w.wrapping_add(1)
                .wrapping_mul(splitmix(0x5EED, i as u64 + 1)),
        )
    })
}

/// Compares a result with a case's `expect`; Err describes the first differences.
pub(crate) fn compare(got: &Bits, expect: &Value) -> Result<usize, String> {
    if let Bits::I64(v) = got {
        let want: Vec<i64> = expect["ints"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_i64()).collect())
            .unwrap_or_default();
        return if *v == want {
            Ok(0)
        } else {
            Err(format!("{v:?} where PyTorch has {want:?}"))
        };
    }
    let words = got.words();
    let hex = |h: &Value| u64::from_str_radix(h.as_str().expect("hex"), 16).expect("hex");
    if let Some(packed) = expect["hex"].as_str() {
        let want = unpack_hex(packed, got.width());
        if want.len() != words.len() {
            return Err(format!(
                "length {} where PyTorch has {}",
                words.len(),
                want.len()
            ));
        }
        // A NaN where PyTorch has a NaN with other payload bits counts as a match (see
        // docs/engine.md: NaN payloads follow operand order the compiler chose).
        let bad: Vec<usize> = (0..words.len())
            .filter(|&i| words[i] != want[i] && !got.both_nan(i, want[i]))
            .collect();
        if bad.is_empty() {
            return Ok((0..words.len()).filter(|&i| words[i] != want[i]).count());
        }
        let max_ulp = bad
            .iter()
            .map(|&i| got.ulps(i, want[i]).abs())
            .max()
            .unwrap_or(0);
        let first: Vec<String> = bad
            .iter()
            .take(3)
            .map(|&i| {
                format!(
                    "[{i}] {} want {:x} ({:+} ulp)",
                    got.show(i),
                    want[i],
                    got.ulps(i, want[i])
                )
            })
            .collect();
        return Err(format!(
            "{} of {} differ (max {} ulp): {}",
            bad.len(),
            words.len(),
            max_ulp,
            first.join("; ")
        ));
    }
    let n = expect["n"].as_u64().expect("n") as usize;
    if n != words.len() {
        return Err(format!("length {} where PyTorch has {n}", words.len()));
    }
    let mut bad = Vec::new();
    for s in expect["samples"].as_array().expect("samples") {
        let i = s[0].as_u64().expect("index") as usize;
        let w = hex(&s[1]);
        if words[i] != w && !got.both_nan(i, w) {
            bad.push(format!(
                "[{i}] {} want {w:x} ({:+} ulp)",
                got.show(i),
                got.ulps(i, w)
            ));
        }
    }
    if keyed_hash(&got.canonical_words()) != hex(&expect["hash"]) {
        return Err(format!(
            "hash differs; {} of the sampled elements differ: {}",
            bad.len(),
            bad.join("; ")
        ));
    }
    Ok(0)
}

/// One fixture family: its cases, run through `check`, every mismatch collected.
/// Returns (cases, matches, failure report).
pub(crate) fn run_family(
    name: &str,
    mut check: impl FnMut(&Value) -> Result<Bits, String>,
) -> (usize, usize, Vec<String>) {
    let mut nan_payloads = 0usize;
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/numerics/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases = doc["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    let mut ok = 0;
    for (i, case) in cases.iter().enumerate() {
        let outcome = check(case).and_then(|got| compare(&got, &case["expect"]));
        match outcome {
            Ok(nans) => {
                ok += 1;
                nan_payloads += nans;
            }
            Err(e) => {
                let mut brief = case.clone();
                if let Some(o) = brief.as_object_mut() {
                    o.remove("expect");
                }
                let mut s = brief.to_string();
                s.truncate(300);
                let op = case["op"].as_str().unwrap_or("?");
                failures.push(format!("{name}[{i}] \"op\":\"{op}\" {s}: {e}"));
            }
        }
    }
    if nan_payloads > 0 {
        eprintln!(
            "numerics {name}: {nan_payloads} NaN results differ from PyTorch's only in payload bits"
        );
    }
    (cases.len(), ok, failures)
}

/// Asserts a family matched entirely, printing its counts either way.
pub(crate) fn assert_family(name: &str, (total, ok, failures): (usize, usize, Vec<String>)) {
    eprintln!("numerics {name}: {ok} of {total} cases bit-exact");
    if !failures.is_empty() {
        // How many cases of each op differ, then the first few in full.
        let mut per_op: std::collections::BTreeMap<String, usize> =
            std::collections::BTreeMap::new();
        for f in &failures {
            let op = f
                .split("\"op\":\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("?");
            *per_op.entry(op.to_string()).or_default() += 1;
        }
        let counts: Vec<String> = per_op.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let shown: Vec<&String> = failures.iter().take(25).collect();
        panic!(
            "{name}: {} of {total} cases differ from PyTorch ({})\n{}",
            failures.len(),
            counts.join(", "),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(total > 0, "{name}: the fixture has no cases");
}

/// The elements of a strided view in logical (row-major) order.
pub(crate) fn logical<T: Copy>(
    data: &[T],
    shape: &[usize],
    strides: &[usize],
    offset: usize,
) -> Vec<T> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..n {
        let off = offset + idx.iter().zip(strides).map(|(i, s)| i * s).sum::<usize>();
        out.push(data[off]);
        row_major::step_index(&mut idx, shape);
    }
    out
}

pub(crate) fn param(case: &Value, key: &str) -> f32 {
    case["params"][key]
        .as_f64()
        .unwrap_or_else(|| panic!("params.{key} missing")) as f32
}

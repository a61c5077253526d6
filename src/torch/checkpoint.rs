//! `torch.load` of a checkpoint file in a host folder the run may read (`cudatutor run
//! --allow-read DIR`): PyTorch's zip format (`torch.save` since 1.6) read as PyTorch 2.6+ reads
//! it by default, `weights_only=True` — tensors, their storages, dicts, OrderedDicts, lists,
//! tuples, numbers, strings, booleans and None; any other global (a pickled model class, a
//! function) is refused as PyTorch refuses it, never executed. Files saved by the run itself
//! are the in-memory file system's (torch/extra.py).

use crate::engine::{DType, Device, Runtime};
use crate::script::ExcType;
use crate::script::{Interpreter, PyException, PyResult, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Most nested containers and stack entries a checkpoint may hold.
const MAX_STACK: usize = 1 << 20;

#[derive(Clone)]
enum Pv {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Tuple(Rc<Vec<Pv>>),
    List(Rc<RefCell<Vec<Pv>>>),
    Dict(Rc<RefCell<Vec<(Pv, Pv)>>>, bool),
    Global(String),
    Storage {
        dtype: DType,
        key: String,
        location: String,
    },
    Tensor(Rc<TensorSpec>),
    Mark,
}

struct TensorSpec {
    dtype: DType,
    key: String,
    location: String,
    offset: usize,
    size: Vec<usize>,
    stride: Vec<usize>,
    requires_grad: bool,
}

fn unpickling(msg: impl Into<String>) -> PyException {
    PyException::new(ExcType::RuntimeError, msg.into())
}

fn unsupported_global(name: &str) -> PyException {
    PyException::new(
        ExcType::RuntimeError,
        format!(
            "Weights only load failed. cudatutor loads checkpoints as PyTorch does by default (weights_only=True): Unsupported global: GLOBAL {name} was not an allowed global by default. Save the model's state_dict() instead of the model object."
        ),
    )
}

fn storage_dtype(name: &str) -> Option<DType> {
    Some(match name {
        "torch.FloatStorage" => DType::Float32,
        "torch.DoubleStorage" => DType::Float64,
        "torch.HalfStorage" => DType::Float16,
        "torch.BFloat16Storage" => DType::BFloat16,
        "torch.LongStorage" => DType::Int64,
        "torch.IntStorage" => DType::Int32,
        "torch.ShortStorage" => DType::Int16,
        "torch.CharStorage" => DType::Int8,
        "torch.ByteStorage" => DType::UInt8,
        "torch.BoolStorage" => DType::Bool,
        _ => return None,
    })
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> PyResult<&[u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| unpickling("the checkpoint's data.pkl is cut short"))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> PyResult<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> PyResult<usize> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize)
    }
    fn line(&mut self) -> PyResult<String> {
        let rest = &self.b[self.at..];
        let n = rest
            .iter()
            .position(|&c| c == b'\n')
            .ok_or_else(|| unpickling("the checkpoint's data.pkl is cut short"))?;
        let s = String::from_utf8_lossy(&rest[..n]).into_owned();
        self.at += n + 1;
        Ok(s)
    }
}

/// Runs the pickle program of `data.pkl` (protocol 2 to 5, the opcodes torch.save writes).
fn unpickle(pkl: &[u8]) -> PyResult<Pv> {
    let mut r = Reader { b: pkl, at: 0 };
    let mut stack: Vec<Pv> = Vec::new();
    let mut memo: std::collections::HashMap<usize, Pv> = Default::default();
    let pop = |stack: &mut Vec<Pv>| {
        stack
            .pop()
            .ok_or_else(|| unpickling("pickle stack underflow"))
    };
    let pop_mark = |stack: &mut Vec<Pv>| -> PyResult<Vec<Pv>> {
        let at = stack
            .iter()
            .rposition(|v| matches!(v, Pv::Mark))
            .ok_or_else(|| unpickling("pickle MARK missing"))?;
        let items = stack.split_off(at + 1);
        stack.pop();
        Ok(items)
    };
    loop {
        if stack.len() > MAX_STACK || memo.len() > MAX_STACK {
            return Err(unpickling("the checkpoint is too deeply nested"));
        }
        let op = r.u8()?;
        match op {
            0x80 => {
                r.u8()?;
            }
            0x95 => {
                r.take(8)?;
            }
            b'.' => return pop(&mut stack),
            b'}' => stack.push(Pv::Dict(Rc::default(), false)),
            b']' => stack.push(Pv::List(Rc::default())),
            b')' => stack.push(Pv::Tuple(Rc::new(Vec::new()))),
            b'(' => stack.push(Pv::Mark),
            b'N' => stack.push(Pv::None),
            0x88 => stack.push(Pv::Bool(true)),
            0x89 => stack.push(Pv::Bool(false)),
            b'K' => {
                let v = r.u8()?;
                stack.push(Pv::Int(i64::from(v)));
            }
            b'M' => {
                let s = r.take(2)?;
                stack.push(Pv::Int(i64::from(u16::from_le_bytes([s[0], s[1]]))));
            }
            b'J' => {
                let s = r.take(4)?;
                stack.push(Pv::Int(i64::from(i32::from_le_bytes([
                    s[0], s[1], s[2], s[3],
                ]))));
            }
            0x8a => {
                let n = usize::from(r.u8()?);
                let s = r.take(n)?;
                if n > 8 {
                    return Err(unpickling("an integer too large in the checkpoint"));
                }
                let mut buf = if s.last().is_some_and(|&b| b & 0x80 != 0) {
                    [0xffu8; 8]
                } else {
                    [0u8; 8]
                };
                buf[..n].copy_from_slice(s);
                stack.push(Pv::Int(i64::from_le_bytes(buf)));
            }
            b'G' => {
                let s = r.take(8)?;
                let mut a = [0u8; 8];
                a.copy_from_slice(s);
                stack.push(Pv::Float(f64::from_be_bytes(a)));
            }
            b'X' | 0x8c | 0x8d => {
                let n = match op {
                    b'X' => r.u32()?,
                    0x8c => usize::from(r.u8()?),
                    _ => {
                        let s = r.take(8)?;
                        let mut a = [0u8; 8];
                        a.copy_from_slice(s);
                        usize::try_from(u64::from_le_bytes(a)).unwrap_or(usize::MAX)
                    }
                };
                let s = r.take(n)?;
                stack.push(Pv::Str(String::from_utf8_lossy(s).into_owned()));
            }
            b'q' => {
                let k = usize::from(r.u8()?);
                memo.insert(
                    k,
                    stack
                        .last()
                        .cloned()
                        .ok_or_else(|| unpickling("empty stack"))?,
                );
            }
            b'r' => {
                let k = r.u32()?;
                memo.insert(
                    k,
                    stack
                        .last()
                        .cloned()
                        .ok_or_else(|| unpickling("empty stack"))?,
                );
            }
            0x94 => {
                let k = memo.len();
                memo.insert(
                    k,
                    stack
                        .last()
                        .cloned()
                        .ok_or_else(|| unpickling("empty stack"))?,
                );
            }
            b'h' | b'j' => {
                let k = if op == b'h' {
                    usize::from(r.u8()?)
                } else {
                    r.u32()?
                };
                stack.push(
                    memo.get(&k)
                        .cloned()
                        .ok_or_else(|| unpickling("a pickle memo key is missing"))?,
                );
            }
            b'c' => {
                let module = r.line()?;
                let name = r.line()?;
                stack.push(Pv::Global(format!("{module}.{name}")));
            }
            0x93 => {
                let name = pop(&mut stack)?;
                let module = pop(&mut stack)?;
                match (module, name) {
                    (Pv::Str(m), Pv::Str(n)) => stack.push(Pv::Global(format!("{m}.{n}"))),
                    _ => return Err(unpickling("STACK_GLOBAL needs two strings")),
                }
            }
            b't' => {
                let items = pop_mark(&mut stack)?;
                stack.push(Pv::Tuple(Rc::new(items)));
            }
            0x85..=0x87 => {
                let n = usize::from(op - 0x84);
                if stack.len() < n {
                    return Err(unpickling("pickle stack underflow"));
                }
                let items = stack.split_off(stack.len() - n);
                stack.push(Pv::Tuple(Rc::new(items)));
            }
            b'a' => {
                let v = pop(&mut stack)?;
                match stack.last() {
                    Some(Pv::List(l)) => l.borrow_mut().push(v),
                    _ => return Err(unpickling("APPEND to a non-list")),
                }
            }
            b'e' => {
                let items = pop_mark(&mut stack)?;
                match stack.last() {
                    Some(Pv::List(l)) => l.borrow_mut().extend(items),
                    _ => return Err(unpickling("APPENDS to a non-list")),
                }
            }
            b's' => {
                let v = pop(&mut stack)?;
                let k = pop(&mut stack)?;
                match stack.last() {
                    Some(Pv::Dict(d, _)) => d.borrow_mut().push((k, v)),
                    _ => return Err(unpickling("SETITEM on a non-dict")),
                }
            }
            b'u' => {
                let items = pop_mark(&mut stack)?;
                match stack.last() {
                    Some(Pv::Dict(d, _)) => {
                        let mut d = d.borrow_mut();
                        let mut it = items.into_iter();
                        while let (Some(k), Some(v)) = (it.next(), it.next()) {
                            d.push((k, v));
                        }
                    }
                    _ => return Err(unpickling("SETITEMS on a non-dict")),
                }
            }
            b'Q' => {
                let pid = pop(&mut stack)?;
                stack.push(persistent(&pid)?);
            }
            b'R' => {
                let args = pop(&mut stack)?;
                let f = pop(&mut stack)?;
                stack.push(reduce(&f, &args)?);
            }
            b'b' => {
                // BUILD: a tensor's or OrderedDict's extra state; nothing a weights load keeps
                pop(&mut stack)?;
            }
            other => {
                return Err(unpickling(format!(
                    "cudatutor cannot read this checkpoint: pickle opcode {other:#04x} is not supported"
                )));
            }
        }
    }
}

fn persistent(pid: &Pv) -> PyResult<Pv> {
    let Pv::Tuple(t) = pid else {
        return Err(unpickling("a persistent id that is not a tuple"));
    };
    match t.as_slice() {
        [
            Pv::Str(kind),
            Pv::Global(class),
            Pv::Str(key),
            Pv::Str(location),
            ..,
        ] if kind == "storage" => {
            let dtype = storage_dtype(class).ok_or_else(|| unsupported_global(class))?;
            Ok(Pv::Storage {
                dtype,
                key: key.clone(),
                location: location.clone(),
            })
        }
        _ => Err(unpickling("an unsupported persistent id in the checkpoint")),
    }
}

fn as_usizes(v: &Pv) -> PyResult<Vec<usize>> {
    match v {
        Pv::Tuple(t) => t
            .iter()
            .map(|x| match x {
                Pv::Int(i) if *i >= 0 => Ok(*i as usize),
                _ => Err(unpickling(
                    "a tensor size that is not a non-negative integer",
                )),
            })
            .collect(),
        _ => Err(unpickling("a tensor size that is not a tuple")),
    }
}

fn reduce(f: &Pv, args: &Pv) -> PyResult<Pv> {
    let Pv::Global(name) = f else {
        return Err(unpickling("REDUCE of something that is not a global"));
    };
    let Pv::Tuple(a) = args else {
        return Err(unpickling("REDUCE arguments that are not a tuple"));
    };
    match name.as_str() {
        "collections.OrderedDict" if a.is_empty() => Ok(Pv::Dict(Rc::default(), true)),
        "torch._utils._rebuild_tensor_v2" | "torch._utils._rebuild_tensor" => {
            let (storage, offset, size, stride) = match a.as_slice() {
                [s, Pv::Int(o), size, stride, ..] => (s, *o, size, stride),
                _ => return Err(unpickling("_rebuild_tensor_v2 with unexpected arguments")),
            };
            let Pv::Storage {
                dtype,
                key,
                location,
            } = storage
            else {
                return Err(unpickling("a tensor without a storage"));
            };
            let requires_grad = matches!(a.get(4), Some(Pv::Bool(true)));
            Ok(Pv::Tensor(Rc::new(TensorSpec {
                dtype: *dtype,
                key: key.clone(),
                location: location.clone(),
                offset: usize::try_from(offset).unwrap_or(0),
                size: as_usizes(size)?,
                stride: as_usizes(stride)?,
                requires_grad,
            })))
        }
        "torch._utils._rebuild_parameter" => match a.first() {
            Some(Pv::Tensor(t)) => {
                let mut spec = TensorSpec {
                    dtype: t.dtype,
                    key: t.key.clone(),
                    location: t.location.clone(),
                    offset: t.offset,
                    size: t.size.clone(),
                    stride: t.stride.clone(),
                    requires_grad: true,
                };
                spec.requires_grad = !matches!(a.get(1), Some(Pv::Bool(false)));
                Ok(Pv::Tensor(Rc::new(spec)))
            }
            _ => Err(unpickling("_rebuild_parameter without a tensor")),
        },
        other => Err(unsupported_global(other)),
    }
}

/// Decodes element `i` of a little-endian storage of `dtype`.
fn element(bytes: &[u8], dtype: DType, i: usize, big: bool) -> Option<f64> {
    let size = dtype.element_size();
    let s = bytes.get(i.checked_mul(size)?..i.checked_mul(size)?.checked_add(size)?)?;
    let mut b = [0u8; 8];
    b[..size].copy_from_slice(s);
    if big {
        b[..size].reverse();
    }
    Some(match dtype {
        DType::Float32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        DType::Float64 => f64::from_le_bytes(b),
        DType::Float16 => half::f16::from_le_bytes([b[0], b[1]]).to_f64(),
        DType::BFloat16 => half::bf16::from_le_bytes([b[0], b[1]]).to_f64(),
        DType::Int64 => i64::from_le_bytes(b) as f64,
        DType::Int32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        DType::Int16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
        DType::Int8 => f64::from(b[0] as i8),
        DType::UInt8 => f64::from(b[0]),
        DType::Bool => f64::from(u8::from(b[0] != 0)),
    })
}

struct Archive {
    members: Vec<(String, Vec<u8>)>,
    prefix: String,
    big: bool,
}

impl Archive {
    fn member(&self, suffix: &str) -> Option<&[u8]> {
        let want = format!("{}/{suffix}", self.prefix);
        self.members
            .iter()
            .find(|(n, _)| *n == want)
            .map(|(_, d)| d.as_slice())
    }
}

/// Turns a read value into the script's value: tensors made on the CPU (moved to their saved
/// CUDA device when `restore` and it exists), OrderedDicts through `collections`.
fn to_value(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    ar: &Archive,
    v: &Pv,
    restore: bool,
) -> PyResult<Value> {
    Ok(match v {
        Pv::None | Pv::Mark => Value::None,
        Pv::Bool(b) => Value::Bool(*b),
        Pv::Int(i) => Value::Int(*i),
        Pv::Float(f) => Value::Float(*f),
        Pv::Str(s) => Value::string(s.clone()),
        Pv::Tuple(t) => {
            let items = t
                .iter()
                .map(|x| to_value(it, rt, ar, x, restore))
                .collect::<PyResult<Vec<_>>>()?;
            Value::tuple(items)
        }
        Pv::List(l) => {
            let items = l
                .borrow()
                .iter()
                .map(|x| to_value(it, rt, ar, x, restore))
                .collect::<PyResult<Vec<_>>>()?;
            Value::list(items)
        }
        Pv::Dict(d, ordered) => {
            let mut pairs = Vec::new();
            for (k, x) in d.borrow().iter() {
                let k = to_value(it, rt, ar, k, restore)?;
                let x = to_value(it, rt, ar, x, restore)?;
                pairs.push(Value::tuple(vec![k, x]));
            }
            let ctor = if *ordered {
                let collections = it.import_module("collections")?;
                it.getattr(&collections, "OrderedDict")?
            } else {
                it.builtins
                    .borrow()
                    .get_str("dict")
                    .cloned()
                    .ok_or_else(|| unpickling("no dict builtin"))?
            };
            it.call_simple(&ctor, vec![Value::list(pairs)])?
        }
        Pv::Global(name) => return Err(unsupported_global(name)),
        Pv::Storage { .. } => return Err(unpickling("a bare storage in the checkpoint")),
        Pv::Tensor(spec) => tensor(rt, ar, spec, restore)?,
    })
}

fn tensor(rt: &Rc<Runtime>, ar: &Archive, spec: &TensorSpec, restore: bool) -> PyResult<Value> {
    let data = ar
        .member(&format!("data/{}", spec.key))
        .ok_or_else(|| unpickling(format!("the checkpoint has no data/{}", spec.key)))?;
    if spec.size.len() != spec.stride.len() {
        return Err(unpickling(
            "a tensor whose size and stride differ in length",
        ));
    }
    let numel = spec
        .size
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| unpickling("a tensor too large"))?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(numel)
        .map_err(|_| PyException::new(ExcType::MemoryError, "the tensor does not fit in memory"))?;
    let mut idx = vec![0usize; spec.size.len()];
    for _ in 0..numel {
        let off = spec.offset
            + idx
                .iter()
                .zip(&spec.stride)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        values.push(
            element(data, spec.dtype, off, ar.big)
                .ok_or_else(|| unpickling("a tensor reaches past its storage"))?,
        );
        crate::binding::row_major::step_index(&mut idx, &spec.size);
    }
    let mut t = rt
        .alloc_tensor(
            spec.size.clone(),
            spec.dtype,
            Device::Cpu,
            Some(values),
            false,
        )
        .map_err(super::py_err)?;
    if restore && let Some(n) = spec.location.strip_prefix("cuda:") {
        let n: i64 = n.parse().unwrap_or(0);
        let count = i64::from(rt.device_count());
        if n >= count {
            return Err(PyException::new(
                ExcType::RuntimeError,
                format!(
                    "Attempting to deserialize object on CUDA device {n} but torch.cuda.device_count() is {count}. Please use torch.load with map_location to map your storages to an existing device."
                ),
            ));
        }
        t = rt
            .to(&t, Some(Device::Cuda(n as u32)), None, false, false, "to")
            .map_err(super::py_err)?;
    }
    if spec.requires_grad && spec.dtype.is_floating_point() {
        t.set_requires_grad(true).map_err(super::py_err)?;
    }
    Ok(super::wrap(rt, t))
}

/// `torch.load(path)` of a host file: `restore` puts tensors back on their saved device (no
/// map_location).
pub(super) fn load(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    path: &str,
    restore: bool,
) -> PyResult<Value> {
    let bytes = crate::script::read_host_file(it, path)?;
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(PyException::new(
            ExcType::RuntimeError,
            "cudatutor reads checkpoints in PyTorch's zip format (torch.save since 1.6); this file is in the legacy format or is not a checkpoint",
        ));
    }
    let members = crate::numpy::npyfile::zip_members(&bytes)?;
    let pkl_name = members
        .iter()
        .map(|(n, _)| n.clone())
        .find(|n| n.ends_with("/data.pkl"))
        .ok_or_else(|| unpickling("the archive has no data.pkl: not a PyTorch checkpoint"))?;
    let prefix = pkl_name.trim_end_matches("/data.pkl").to_string();
    let mut ar = Archive {
        members,
        prefix,
        big: false,
    };
    ar.big = ar.member("byteorder").is_some_and(|b| b == b"big");
    let root = unpickle(ar.member("data.pkl").unwrap_or_default())?;
    to_value(it, rt, &ar, &root, restore)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pickled_state_dict_reads_without_running_anything() {
        // torch.save({'b': torch.arange(3)})'s data.pkl (protocol 2), abridged to its opcodes
        let mut p = vec![
            0x80, 2, b'}', b'q', 0, b'(', b'X', 1, 0, 0, 0, b'b', b'q', 1,
        ];
        p.extend(b"ctorch._utils\n_rebuild_tensor_v2\n");
        p.extend([b'q', 2, b'(', b'(', b'X', 7, 0, 0, 0]);
        p.extend(b"storage");
        p.extend(b"ctorch\nLongStorage\n");
        p.extend([b'X', 1, 0, 0, 0, b'0', b'X', 3, 0, 0, 0]);
        p.extend(b"cpu");
        p.extend([
            b'K', 3, b't', b'Q', b'K', 0, b'K', 3, 0x85, b'K', 1, 0x85, 0x89,
        ]);
        p.extend(b"ccollections\nOrderedDict\n");
        p.extend([b')', b'R', b't', b'R', b'u', b'.']);
        let Pv::Dict(d, false) = unpickle(&p).unwrap() else {
            panic!("not a dict");
        };
        let d = d.borrow();
        assert!(
            matches!(&d[0], (Pv::Str(k), Pv::Tensor(t)) if k == "b" && t.size == vec![3] && t.dtype == DType::Int64)
        );
    }

    #[test]
    fn other_globals_are_refused_and_damaged_pickles_are_errors() {
        let mut p = vec![0x80, 2];
        p.extend(b"cos\nsystem\n");
        p.extend([b'X', 2, 0, 0, 0, b'l', b's', 0x85, b'R', b'.']);
        assert!(unpickle(&p).is_err());
        let args = Pv::Tuple(Rc::new(vec![Pv::Str("ls".into())]));
        assert!(reduce(&Pv::Global("os.system".into()), &args).is_err());
        for n in 0..p.len() {
            let _ = unpickle(&p[..n]);
        }
        assert!(unpickle(b"(e.").is_err());
        assert!(unpickle(&[0xff]).is_err());
    }
}

//! Small torch objects: dtype, device, Size, the numpy stand-in, return_types, grad_fn, and
//! the `no_grad` / `torch.cuda.device` context managers.

pub(super) use crate::binding::PyDType;

use super::{at_line, py_err};
use crate::engine::dtype::Scalar;
use crate::engine::{DType, DeviceSpec, Runtime};
use crate::script::ExcType;
use crate::script::{
    Args, BinaryCall, CmpOp, Interpreter, NativeCx, NativeObject, PyException, PyResult, Value,
};
use std::cell::Cell;
use std::rc::Rc;

/// `torch.contiguous_format`, `torch.preserve_format`, `torch.channels_last`,
/// `torch.channels_last_3d`: the memory formats a learner passes as `memory_format=`. The
/// engine's tensors are laid out by their strides alone; these objects exist so that such
/// arguments are accepted, print and compare as PyTorch's.
pub(super) struct PyMemoryFormat(pub &'static str);

/// The names of [`PyMemoryFormat`], as `torch.NAME`.
pub(super) const MEMORY_FORMATS: [&str; 4] = [
    "contiguous_format",
    "preserve_format",
    "channels_last",
    "channels_last_3d",
];

impl NativeObject for PyMemoryFormat {
    fn type_name(&self) -> &str {
        "memory_format"
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!("torch.{}", self.0))
    }
    fn equals(&self, other: &Value) -> Option<bool> {
        other.downcast::<PyMemoryFormat>().map(|o| self.0 == o.0)
    }
    fn hash(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        let index = MEMORY_FORMATS.iter().position(|n| *n == self.0);
        Ok(Some(2000 + index.unwrap_or(0) as i64))
    }
}

/// `torch.device(...)`.
pub struct PyDevice(pub DeviceSpec);

impl NativeObject for PyDevice {
    fn type_name(&self) -> &str {
        "device"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "type" => Some(Value::str(self.0.kind.name())),
            "index" => Some(
                self.0
                    .index
                    .map(|i| Value::Int(i as i64))
                    .unwrap_or(Value::None),
            ),
            _ => None,
        }
    }
    fn plain_repr(&self) -> Option<String> {
        Some(self.0.repr())
    }
    fn str(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(self.0.to_string()))
    }
    fn equals(&self, other: &Value) -> Option<bool> {
        other.downcast::<PyDevice>().map(|o| self.0 == o.0)
    }
    fn hash(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(Some(
            self.0.index.map(|i| i as i64).unwrap_or(-1) * 31 + self.0.kind.name().len() as i64,
        ))
    }
}

/// `torch.Size([...])`: a tuple of ints.
pub struct PySize(pub Vec<usize>);

impl PySize {
    fn items(&self) -> Vec<Value> {
        self.0.iter().map(|&d| Value::Int(d as i64)).collect()
    }
}

impl NativeObject for PySize {
    fn type_name(&self) -> &str {
        "Size"
    }
    /// `size + tuple` and `tuple + size` (Size subclasses tuple; the sum is a Size).
    fn binary_op(&self, _: NativeCx<'_>, call: BinaryCall<'_>) -> PyResult<Option<Value>> {
        if call.op != crate::script::BinOp::Add {
            return Ok(None);
        }
        let theirs = match call.other {
            Value::Tuple(t) => (**t).clone(),
            Value::Native(_) => match call.other.downcast::<PySize>() {
                Some(s) => s.items(),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let mine = self.items();
        let (left, right) = call.in_order(mine, theirs);
        let all: Vec<Value> = left.into_iter().chain(right).collect();
        let dims: Option<Vec<usize>> = all
            .iter()
            .map(|v| match v {
                Value::Int(i) if *i >= 0 => Some(*i as usize),
                _ => None,
            })
            .collect();
        Ok(Some(match dims {
            Some(d) => Value::native(PySize(d)),
            None => Value::tuple(all),
        }))
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        let n: usize = self.0.iter().product();
        match name {
            "numel" => Some(Value::native_fn("numel", move |_, _| {
                Ok(Value::Int(n as i64))
            })),
            _ => None,
        }
    }
    fn plain_repr(&self) -> Option<String> {
        Some(crate::engine::tensor::size_repr(&self.0))
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(Some(self.0.len()))
    }
    fn iter(&self, _: NativeCx<'_>) -> PyResult<Option<Value>> {
        Ok(Some(Value::iter_from_vec(self.items())))
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        let t = Value::tuple(self.items());
        let r = it.getitem(&t, key)?;
        if let Value::Tuple(items) = &r {
            let dims: Vec<usize> = items
                .iter()
                .map(|v| v.as_int().unwrap_or(0) as usize)
                .collect();
            return Ok(Some(Value::native(PySize(dims))));
        }
        Ok(Some(r))
    }
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        let o: Vec<Value> = match other {
            v if v.downcast::<PySize>().is_some() => v.downcast::<PySize>().unwrap().items(),
            Value::Tuple(_) => other.as_vec().unwrap_or_default(),
            _ => return Ok(None),
        };
        let r = cx
            .it
            .compare(op, &Value::tuple(self.items()), &Value::tuple(o))?;
        Ok(Some(r))
    }
    fn hash(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<i64>> {
        let k = it.hkey(&Value::tuple(self.items()))?;
        Ok(Some(k.py_hash()))
    }
    fn contains(&self, _: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        Ok(Some(
            v.as_int()
                .is_some_and(|i| self.0.iter().any(|&d| d as i64 == i)),
        ))
    }
}

/// `loss.grad_fn`: `<NllLossBackward0 object at 0x...>`, with `name()` and
/// `next_functions` (its inputs' nodes: another grad_fn, an `AccumulateGrad` for a leaf that
/// requires grad, None for an input that does not).
pub(super) struct GradFn {
    pub name: &'static str,
    pub(crate) node: Option<Rc<crate::engine::tensor::autograd::Node>>,
}

impl GradFn {
    pub(super) fn of(t: &crate::engine::Tensor) -> Option<GradFn> {
        t.grad_fn().map(|name| GradFn {
            name,
            node: t.node.clone(),
        })
    }
}

impl NativeObject for GradFn {
    /// A graph node is callable in PyTorch (`y.grad_fn(grad)` runs its backward).
    fn is_callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        self.name
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        use crate::engine::tensor::autograd::Edge;
        let n = self.name;
        match name {
            // the C++ nodes that live in torch::autograd rather than the generated code
            // answer name() with their namespace (their repr is the bare type name)
            "name" => Some(Value::native_fn("name", move |_, _| {
                Ok(match n {
                    "CopySlices" | "CopyBackwards" => Value::str(&format!("torch::autograd::{n}")),
                    _ => Value::str(n),
                })
            })),
            "next_functions" => {
                let edges = self
                    .node
                    .as_ref()
                    .map(|n| n.pytorch_edges())
                    .unwrap_or_default();
                Some(Value::tuple(
                    edges
                        .into_iter()
                        .map(|e| {
                            let f = match e {
                                Edge::None => Value::None,
                                Edge::Leaf(_) => Value::native(AccumulateGrad),
                                Edge::Node(n) => Value::native(GradFn {
                                    name: n.name,
                                    node: Some(n),
                                }),
                                Edge::Unsupported(name, node) => {
                                    Value::native(GradFn { name, node })
                                }
                            };
                            Value::tuple(vec![f, Value::Int(0)])
                        })
                        .collect(),
                ))
            }
            _ => None,
        }
    }
    /// A custom `autograd.Function`'s node is a Python class of torch.autograd.function:
    /// `<torch.autograd.function.SqBackward object at 0x...>`; built-in nodes print bare.
    fn repr(&self, NativeCx { this, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        if !self.node.as_ref().is_some_and(|n| n.is_python_function()) {
            return Ok(None);
        }
        let addr = format!(
            "0x{:012x}",
            Value::Native(this.clone()).ptr_id().unwrap_or(0)
        );
        Ok(Some(format!(
            "<torch.autograd.function.{} object at {addr}>",
            self.name
        )))
    }
}

/// A leaf's node in `next_functions`: `<AccumulateGrad object at 0x...>`.
pub(super) struct AccumulateGrad;

impl NativeObject for AccumulateGrad {
    /// A graph node is callable in PyTorch (`y.grad_fn(grad)` runs its backward).
    fn is_callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "AccumulateGrad"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "name" => Some(Value::native_fn("name", |_, _| {
                Ok(Value::str("torch::autograd::AccumulateGrad"))
            })),
            "next_functions" => Some(Value::tuple(Vec::new())),
            _ => None,
        }
    }
}

/// `with torch.no_grad():` (and `torch.enable_grad()`).
pub(super) struct GradMode {
    pub rt: Rc<Runtime>,
    pub enabled: bool,
    prev: Cell<bool>,
    /// `torch.set_grad_enabled(mode)` switches when called (it works as a plain call too) and
    /// restores the previous mode when its `with` block ends.
    set_on_create: bool,
    name: &'static str,
    /// `torch.inference_mode(mode)`: the inference flag it sets, and the one it restores.
    inference: Option<bool>,
    prev_inference: Cell<bool>,
}

impl GradMode {
    pub(super) fn new(rt: Rc<Runtime>, enabled: bool) -> Self {
        GradMode {
            rt,
            enabled,
            prev: Cell::new(true),
            set_on_create: false,
            name: if enabled { "enable_grad" } else { "no_grad" },
            inference: None,
            prev_inference: Cell::new(false),
        }
    }
    pub(super) fn inference_mode(rt: Rc<Runtime>, mode: bool) -> Self {
        // inference_mode(False) inside an inference block turns both back on
        GradMode {
            name: "inference_mode",
            inference: Some(mode),
            ..GradMode::new(rt, !mode)
        }
    }
    pub(super) fn set_now(rt: Rc<Runtime>, enabled: bool) -> Self {
        let prev = rt.grad_enabled();
        rt.set_grad_enabled(enabled);
        GradMode {
            rt,
            enabled,
            prev: Cell::new(prev),
            set_on_create: true,
            name: "set_grad_enabled",
            inference: None,
            prev_inference: Cell::new(false),
        }
    }
}

impl NativeObject for GradMode {
    fn type_name(&self) -> &str {
        self.name
    }
    fn enter(&self, _: NativeCx<'_>) -> PyResult<Option<Value>> {
        if self.set_on_create {
            return Ok(Some(Value::None));
        }
        self.prev.set(self.rt.grad_enabled());
        self.rt.set_grad_enabled(self.enabled);
        self.prev_inference.set(self.rt.inference_mode());
        if let Some(on) = self.inference {
            self.rt.set_inference_mode(on);
        }
        Ok(Some(Value::None))
    }
    fn exit(&self, _: NativeCx<'_>, _exc: Option<&Value>) -> PyResult<bool> {
        self.rt.set_grad_enabled(self.prev.get());
        if self.inference.is_some() {
            self.rt.set_inference_mode(self.prev_inference.get());
        }
        Ok(false)
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, _: NativeCx<'_>, args: Args) -> PyResult<Value> {
        // used as a decorator: each call of the function runs in this grad mode
        let Some(f) = args.positional.first().cloned() else {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{}.__call__() missing 1 required positional argument: 'orig_func'",
                    self.name
                ),
            ));
        };
        let rt = self.rt.clone();
        let enabled = self.enabled;
        let inference = self.inference;
        Ok(Value::native_fn("decorate_context", move |it, args| {
            let prev = rt.grad_enabled();
            let prev_inf = rt.inference_mode();
            rt.set_grad_enabled(enabled);
            if let Some(on) = inference {
                rt.set_inference_mode(on);
            }
            let r = it.call(&f, args);
            rt.set_grad_enabled(prev);
            rt.set_inference_mode(prev_inf);
            r
        }))
    }
}

/// `with torch.cuda.device(i):`.
pub(super) struct CudaDeviceCtx {
    pub rt: Rc<Runtime>,
    pub index: i64,
    prev: Cell<u32>,
}

impl CudaDeviceCtx {
    pub(super) fn new(rt: Rc<Runtime>, index: i64) -> Self {
        CudaDeviceCtx {
            rt,
            index,
            prev: Cell::new(0),
        }
    }
}

impl NativeObject for CudaDeviceCtx {
    fn type_name(&self) -> &str {
        "device"
    }
    fn enter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        at_line(&self.rt, it);
        self.prev.set(self.rt.current_device());
        if self.index >= 0 {
            self.rt.set_device(self.index).map_err(py_err)?;
        }
        Ok(Some(Value::None))
    }
    fn exit(&self, _: NativeCx<'_>, _exc: Option<&Value>) -> PyResult<bool> {
        let _ = self.rt.set_device(self.prev.get() as i64);
        Ok(false)
    }
}

/// `torch.cuda.get_device_properties(i)`.
pub(super) struct DeviceProps {
    pub name: String,
    pub total_memory: u64,
    /// (major, minor): the driver's on a real GPU, 9.0 for the modelled H200.
    pub capability: (i32, i32),
    pub sm_count: u32,
}

impl NativeObject for DeviceProps {
    fn type_name(&self) -> &str {
        "_CudaDeviceProperties"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "name" => Some(Value::str(&self.name)),
            "total_memory" => Some(Value::Int(self.total_memory as i64)),
            "major" => Some(Value::Int(i64::from(self.capability.0))),
            "minor" => Some(Value::Int(i64::from(self.capability.1))),
            "multi_processor_count" => Some(Value::Int(i64::from(self.sm_count))),
            _ => None,
        }
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!(
            "_CudaDeviceProperties(name='{}', major={}, minor={}, total_memory={}MB, multi_processor_count={})",
            self.name,
            self.capability.0,
            self.capability.1,
            self.total_memory >> 20,
            self.sm_count
        ))
    }
}

/// A `torch.Generator()` (CPU): its own mt19937 stream, passed as `generator=`.
pub(super) struct PyGenerator {
    pub rt: Rc<Runtime>,
    pub generator: crate::engine::SharedGenerator,
}

/// `torch.Generator`'s seed argument as PyTorch converts it (negative values two's
/// complement; outside [-2^63, 2^64) the ValueError/RuntimeError PyTorch raises).
pub(crate) fn seed_arg(it: &mut Interpreter, v: &Value) -> PyResult<u64> {
    // a Python int up to 2^64 - 1 (what initial_seed() hands back) without passing through
    // i64; other objects through __index__
    let s = match crate::script::bigint::to_i128(v) {
        Some(s) => s,
        None if matches!(v, Value::BigInt(_)) => i128::MAX,
        None => super::int_arg(it, v)? as i128,
    };
    crate::engine::random::seed_from_int(s).map_err(|e| {
        let (kind, msg) = e.python_error();
        PyException::new(super::exc_type_of(kind), msg)
    })
}

/// A fresh non-deterministic seed, as c10's `getNonDeterministicRandom` makes it for the CPU.
pub(super) fn nondeterministic_seed() -> u64 {
    crate::engine::random::nondeterministic_seed()
}

/// A byte tensor of a generator state (`get_rng_state()`).
pub(crate) fn state_tensor(rt: &Rc<Runtime>, bytes: &[u8]) -> PyResult<Value> {
    let vals: Vec<Scalar> = bytes.iter().map(|&b| Scalar::Int(b as i64)).collect();
    let t = rt
        .tensor(
            &vals,
            vec![bytes.len()],
            Some(DType::UInt8),
            crate::engine::Device::Cpu,
        )
        .map_err(py_err)?;
    Ok(super::wrap(rt, t))
}

/// The bytes of a state tensor passed to `set_rng_state`/`set_state` (PyTorch's TypeError
/// for anything but a torch.ByteTensor).
pub(crate) fn state_bytes(v: &Value, fname: &str) -> PyResult<Vec<u8>> {
    let t = super::tensor_of(v).ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!(
                "{fname}(): argument 'new_state' (position 1) must be Tensor, not {}",
                v.type_name()
            ),
        )
    })?;
    if t.dtype() != DType::UInt8 {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "expected a torch.ByteTensor, but got {}",
                crate::engine::tensor::tensor_type_name(&t)
            ),
        ));
    }
    let vals = t.scalars().map_err(py_err)?;
    Ok(vals.iter().map(|s| s.as_f64() as u8).collect())
}

impl NativeObject for PyGenerator {
    fn type_name(&self) -> &str {
        "Generator"
    }
    fn getattr(&self, NativeCx { this, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let g = self.generator.clone();
        let rt = self.rt.clone();
        let me = this.clone();
        Ok(match name {
            "manual_seed" => Some(Value::native_fn("manual_seed", move |it, args| {
                let a = args.bind("manual_seed", &["seed"], 1)?;
                let s = seed_arg(it, a[0].as_ref().unwrap_or(&Value::None))?;
                g.borrow_mut().manual_seed(s);
                Ok(Value::Native(me.clone()))
            })),
            "initial_seed" => Some(Value::native_fn("initial_seed", move |_, _| {
                Ok(crate::script::bigint::from_i128(
                    g.borrow().initial_seed() as i128
                ))
            })),
            "seed" => Some(Value::native_fn("seed", move |_, _| {
                let s = nondeterministic_seed();
                g.borrow_mut().manual_seed(s);
                Ok(crate::script::bigint::from_i128(s as i128))
            })),
            "get_state" => Some(Value::native_fn("get_state", move |_, _| {
                let bytes = g.borrow().get_state();
                state_tensor(&rt, &bytes)
            })),
            "set_state" => Some(Value::native_fn("set_state", move |_, args| {
                let a = args.bind("set_state", &["new_state"], 1)?;
                let b = state_bytes(a[0].as_ref().unwrap_or(&Value::None), "set_state")?;
                g.borrow_mut()
                    .set_state(&b)
                    .map_err(|m| PyException::new(ExcType::RuntimeError, m))?;
                Ok(Value::Native(me.clone()))
            })),
            "device" => Some(Value::native(PyDevice(crate::engine::Device::Cpu.spec()))),
            _ => None,
        })
    }
    fn repr(&self, NativeCx { this, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(format!(
            "<torch._C.Generator object at {:#x}>",
            Rc::as_ptr(this) as *const u8 as usize
        )))
    }
}

//! `torch.cuda`.

use super::objects::CudaDeviceCtx;
use super::{at_line, device_spec, py_err};
use crate::engine::{DeviceType, Runtime};
use crate::script::ExcType;
use crate::script::{Args, Interpreter, Module, PyException, PyResult, Value};
use std::rc::Rc;

/// A native function of a torch.cuda module, handed the runtime.
pub(super) type CudaFn = fn(&mut Interpreter, &Rc<Runtime>, Args) -> PyResult<Value>;

/// One of the runtime's memory counters of a device.
type MemoryStat = fn(&Runtime, u32) -> u64;

/// Adds `f` to `m` as `name`; each call first notes the script's line for the runtime's
/// reports (torch.cuda and torch.cuda._tools register their functions this way).
pub(super) fn reg(m: &Module, rt: &Rc<Runtime>, name: &str, f: CudaFn) {
    let rt = rt.clone();
    m.add_fn(name, move |it, args| {
        at_line(&rt, it);
        f(it, &rt, args)
    });
}

/// The device a `device=None` / int / 'cuda:1' / torch.device argument names.
fn dev_index(it: &mut Interpreter, rt: &Runtime, args: &Args, fname: &str) -> PyResult<u32> {
    let a = args.bind(fname, &["device"], 0)?;
    let idx = match &a[0] {
        None | Some(Value::None) => rt.current_device() as i64,
        Some(Value::Int(i)) => *i,
        Some(v) => match device_spec(v)? {
            Some(s) if s.kind == DeviceType::Cuda => s
                .index
                .map(|i| i as i64)
                .unwrap_or(rt.current_device() as i64),
            Some(s) => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!("Expected a cuda device, but got: {s}"),
                ));
            }
            None => {
                let _ = it;
                rt.current_device() as i64
            }
        },
    };
    rt.check_device(idx).map_err(py_err)
}

/// The device a `device` argument bound with others names, as [`dev_index`] reads it.
fn bound_dev_index(
    it: &mut Interpreter,
    rt: &Runtime,
    device: &Option<Value>,
    fname: &str,
) -> PyResult<u32> {
    dev_index(
        it,
        rt,
        &Args::new(vec![device.clone().unwrap_or_default()]),
        fname,
    )
}

/// The CUDA error classes, which both `torch` and `torch.cuda` export.
pub(super) fn add_cuda_error_classes(it: &mut Interpreter, m: &Module) {
    m.set_attr(
        "OutOfMemoryError",
        Value::Class(it.exc_class(ExcType::OutOfMemoryError)),
    );
    m.set_attr(
        "AcceleratorError",
        Value::Class(it.exc_class(ExcType::AcceleratorError)),
    );
}

pub(super) fn cuda_module(it: &mut Interpreter, rt: &Rc<Runtime>) -> PyResult<Value> {
    let m = Module::new("torch.cuda");
    add_cuda_error_classes(it, &m);
    reg(&m, rt, "is_available", |_, rt, _| {
        Ok(Value::Bool(rt.device_count() > 0))
    });
    reg(&m, rt, "is_initialized", |_, rt, _| {
        Ok(Value::Bool(rt.cuda_initialized()))
    });
    reg(&m, rt, "device_count", |_, rt, _| {
        Ok(Value::Int(rt.device_count() as i64))
    });
    reg(&m, rt, "current_device", |_, rt, _| {
        Ok(Value::Int(
            rt.check_device(rt.current_device() as i64)
                .map_err(py_err)? as i64,
        ))
    });
    reg(&m, rt, "set_device", |it, rt, args| {
        let d = dev_index(it, rt, &args, "set_device")?;
        rt.set_device(d as i64).map_err(py_err)?;
        Ok(Value::None)
    });
    reg(&m, rt, "device", |it, rt, args| {
        let a = args.bind("device", &["device"], 1)?;
        let idx = match &a[0] {
            Some(Value::Int(i)) => *i,
            Some(v) => match device_spec(v)? {
                Some(s) => s
                    .index
                    .map(|i| i as i64)
                    .unwrap_or(rt.current_device() as i64),
                None => -1,
            },
            None => -1,
        };
        let _ = it;
        Ok(Value::native(CudaDeviceCtx::new(rt.clone(), idx)))
    });
    reg(&m, rt, "get_device_properties", |it, rt, args| {
        let d = dev_index(it, rt, &args, "get_device_properties")?;
        let total = rt.mem_get_info(d).1;
        let id = rt.device_identity(d);
        Ok(Value::native(super::objects::DeviceProps {
            name: rt.device_name().to_string(),
            total_memory: total,
            capability: id.capability,
            sm_count: id.sm_count,
        }))
    });
    reg(&m, rt, "get_device_name", |it, rt, args| {
        dev_index(it, rt, &args, "get_device_name")?;
        Ok(Value::str(rt.device_name()))
    });
    reg(&m, rt, "get_device_capability", |it, rt, args| {
        let d = dev_index(it, rt, &args, "get_device_capability")?;
        let (major, minor) = rt.device_identity(d).capability;
        Ok(Value::tuple(vec![
            Value::Int(i64::from(major)),
            Value::Int(i64::from(minor)),
        ]))
    });
    // torch.cuda._sleep(cycles): a kernel that spins for `cycles` GPU clock cycles (PyTorch's
    // own tests and its non_blocking tutorial use it to keep the GPU busy); at the H200's
    // 1980 MHz boost clock, 1980 cycles a microsecond
    reg(&m, rt, "_sleep", |_, rt, args| {
        let a = args.bind("_sleep", &["cycles"], 1)?;
        let cycles = match a[0].as_ref() {
            Some(Value::Int(c)) if *c >= 0 => *c as f64,
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "_cuda_sleep(): argument 'cycles' must be a non-negative int",
                ));
            }
        };
        let us = (cycles / 1980.0).min(1e9);
        let flops = (us * rt.timing().device_flops_per_us) as u64;
        let dev = rt.current_device();
        rt.launch(
            "_sleep",
            dev,
            crate::engine::timing::Cost::new(0, flops),
            Vec::new(),
        )
        .map_err(py_err)?;
        Ok(Value::None)
    });
    reg(&m, rt, "synchronize", |it, rt, args| {
        let d = dev_index(it, rt, &args, "synchronize")?;
        rt.synchronize(Some(d)).map_err(py_err)?;
        Ok(Value::None)
    });
    // Each memory statistic reads one counter of the device its `device` argument names;
    // memory_cached is PyTorch's old name for memory_reserved.
    let stats: [(&'static str, MemoryStat); 5] = [
        ("memory_allocated", Runtime::memory_allocated),
        ("memory_reserved", Runtime::memory_reserved),
        ("memory_cached", Runtime::memory_reserved),
        ("max_memory_allocated", Runtime::max_memory_allocated),
        ("max_memory_reserved", Runtime::max_memory_reserved),
    ];
    for (name, stat) in stats {
        let rt = rt.clone();
        m.add_fn(name, move |it, args| {
            at_line(&rt, it);
            Ok(Value::Int(
                stat(&rt, dev_index(it, &rt, &args, name)?) as i64
            ))
        });
    }
    // reset_max_memory_allocated is the older name of the same reset.
    for name in ["reset_peak_memory_stats", "reset_max_memory_allocated"] {
        let rt = rt.clone();
        m.add_fn(name, move |it, args| {
            at_line(&rt, it);
            rt.reset_peak_memory_stats(dev_index(it, &rt, &args, name)?);
            Ok(Value::None)
        });
    }
    reg(&m, rt, "empty_cache", |_, rt, _| {
        rt.empty_cache();
        Ok(Value::None)
    });
    reg(&m, rt, "mem_get_info", |it, rt, args| {
        let (f, t) = rt.mem_get_info(dev_index(it, rt, &args, "mem_get_info")?);
        Ok(Value::tuple(vec![
            Value::Int(f as i64),
            Value::Int(t as i64),
        ]))
    });
    reg(&m, rt, "memory_summary", |it, rt, args| {
        let a = args.bind("memory_summary", &["device", "abbreviated"], 0)?;
        let d = bound_dev_index(it, rt, &a[0], "memory_summary")?;
        let ab = match &a[1] {
            Some(v) => it.truthy(v)?,
            None => false,
        };
        Ok(Value::string(rt.memory_summary(d, ab)))
    });
    reg(&m, rt, "memory_stats", |it, rt, args| {
        let d = dev_index(it, rt, &args, "memory_stats")?;
        let s = rt.memory_stats(d);
        let mut pairs: Vec<(String, Value)> = Vec::new();
        let arrays = [
            ("allocation", &s.allocation),
            ("segment", &s.segment),
            ("active", &s.active),
            ("inactive_split", &s.inactive_split),
            ("allocated_bytes", &s.allocated_bytes),
            ("reserved_bytes", &s.reserved_bytes),
            ("active_bytes", &s.active_bytes),
            ("inactive_split_bytes", &s.inactive_split_bytes),
            ("requested_bytes", &s.requested_bytes),
        ];
        for (name, arr) in arrays {
            for (pool, st) in [
                ("all", &arr.all),
                ("large_pool", &arr.large),
                ("small_pool", &arr.small),
            ] {
                for (field, v) in [
                    ("allocated", st.allocated),
                    ("current", st.current),
                    ("freed", st.freed),
                    ("peak", st.peak),
                ] {
                    pairs.push((format!("{name}.{pool}.{field}"), Value::Int(v)));
                }
            }
        }
        pairs.push((
            "num_alloc_retries".into(),
            Value::Int(s.num_alloc_retries as i64),
        ));
        pairs.push(("num_ooms".into(), Value::Int(s.num_ooms as i64)));
        pairs.extend(memory_stats_2_15(&s));
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Value::dict_from_pairs(
            pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
        ))
    });
    reg(&m, rt, "manual_seed", |it, rt, args| {
        let a = args.bind("manual_seed", &["seed"], 1)?;
        rt.cuda_manual_seed(crate::torch::int_arg(it, a[0].as_ref().unwrap())? as u64);
        Ok(Value::None)
    });
    reg(&m, rt, "initial_seed", |_, rt, _| {
        Ok(crate::script::bigint::from_i128(
            rt.cuda_initial_seed() as i128
        ))
    });
    reg(&m, rt, "get_rng_state", |_, rt, _| {
        crate::torch::objects::state_tensor(rt, &rt.cuda_rng_state())
    });
    reg(&m, rt, "set_rng_state", |_, rt, args| {
        let a = args.bind("set_rng_state", &["new_state"], 1)?;
        let b = crate::torch::objects::state_bytes(a[0].as_ref().unwrap(), "set_state")?;
        rt.set_cuda_rng_state(&b)
            .map_err(|e| PyException::new(ExcType::RuntimeError, e))?;
        Ok(Value::None)
    });
    reg(&m, rt, "manual_seed_all", |it, rt, args| {
        let a = args.bind("manual_seed_all", &["seed"], 1)?;
        let s = crate::torch::int_arg(it, a[0].as_ref().unwrap())? as u64;
        rt.cuda_manual_seed_all(s);
        Ok(Value::None)
    });
    reg(&m, rt, "set_per_process_memory_fraction", |it, rt, args| {
        let a = args.bind(
            "set_per_process_memory_fraction",
            &["fraction", "device"],
            1,
        )?;
        let f = a[0].as_ref().and_then(|v| v.as_float()).unwrap_or(1.0);
        if !(0.0..=1.0).contains(&f) {
            return Err(PyException::new(
                ExcType::ValueError,
                format!("Invalid fraction value: {f}. Allowed range: 0~1"),
            ));
        }
        let d = bound_dev_index(it, rt, &a[1], "set_per_process_memory_fraction")?;
        let total = rt.mem_get_info(d).1;
        rt.set_memory_cap(Some((total as f64 * f) as u64));
        Ok(Value::None)
    });
    Ok(m.into_value())
}

/// The keys 2.15's `memory_stats()` has besides the core statistics (the names in
/// libtorch_python.so's THCPModule_memoryStats): cudaMalloc and cudaFree calls are the
/// segments' allocations and frees; no max_split_size is configured (PyTorch's SIZE_MAX, -1
/// as a signed int), so nothing is oversize; one stream, so no synchronize-all.
fn memory_stats_2_15(s: &crate::engine::allocator::MemoryStats) -> Vec<(String, Value)> {
    let mut pairs = vec![
        ("max_split_size".to_string(), Value::Int(-1)),
        ("num_sync_all_streams".to_string(), Value::Int(0)),
        (
            "num_device_alloc".to_string(),
            Value::Int(s.segment.all.allocated),
        ),
        (
            "num_device_free".to_string(),
            Value::Int(s.segment.all.freed),
        ),
        ("num_oom_rejections".to_string(), Value::Int(0)),
    ];
    for stat in ["oversize_allocations", "oversize_segments"] {
        for field in ["allocated", "current", "freed", "peak"] {
            pairs.push((format!("{stat}.{field}"), Value::Int(0)));
        }
    }
    pairs
}

//! `torch.cuda._tools`: the native side of the CUDA debugging tools the lessons teach, written
//! in Python over it (cuda_py.py: `torch.cuda.Event`, `current_stream()`,
//! `torch.cuda.memory._record_memory_history` / `_snapshot`) and of DataLoader workers
//! (data.py): events on the modelled stream, the allocator's history and snapshot, and a
//! worker's fetch run as a forked process would run it.

use super::cuda::reg;
use super::py_err;
use crate::engine::Runtime;
use crate::script::ExcType;
use crate::script::{Args, Interpreter, Module, PyException, PyResult, Value};
use std::rc::Rc;

fn device_of(rt: &Runtime, v: Option<&Value>) -> PyResult<u32> {
    let i = match v {
        Some(Value::Int(i)) => *i,
        _ => rt.current_device() as i64,
    };
    rt.check_device(i).map_err(py_err)
}

fn time_of(v: Option<&Value>, name: &str) -> PyResult<f64> {
    v.and_then(Value::as_float)
        .ok_or_else(|| PyException::new(ExcType::TypeError, format!("{name}(): expected a time")))
}

/// The (device, event time) arguments of the calls that wait on or ask about an event.
fn device_and_time(rt: &Runtime, args: &Args, name: &str) -> PyResult<(u32, f64)> {
    let a = args.bind(name, &["device", "t"], 2)?;
    Ok((device_of(rt, a[0].as_ref())?, time_of(a[1].as_ref(), name)?))
}

pub(super) fn tools_module(_it: &mut Interpreter, rt: &Rc<Runtime>) -> PyResult<Value> {
    let m = Module::new("torch.cuda._tools");
    reg(&m, rt, "event_record", |_, rt, args| {
        let a = args.bind("event_record", &["device"], 0)?;
        let d = device_of(rt, a[0].as_ref())?;
        Ok(Value::Float(rt.event_record(d).map_err(py_err)?))
    });
    reg(&m, rt, "event_query", |_, rt, args| {
        let (d, t) = device_and_time(rt, &args, "event_query")?;
        Ok(Value::Bool(rt.event_query(d, t).map_err(py_err)?))
    });
    reg(&m, rt, "event_synchronize", |_, rt, args| {
        let (d, t) = device_and_time(rt, &args, "event_synchronize")?;
        rt.event_synchronize(d, t).map_err(py_err)?;
        Ok(Value::None)
    });
    reg(&m, rt, "stream_wait", |_, rt, args| {
        let (d, t) = device_and_time(rt, &args, "stream_wait")?;
        rt.stream_wait(d, t).map_err(py_err)?;
        Ok(Value::None)
    });
    reg(&m, rt, "stream_query", |_, rt, args| {
        let a = args.bind("stream_query", &["device"], 0)?;
        let d = device_of(rt, a[0].as_ref())?;
        Ok(Value::Bool(rt.stream_query(d).map_err(py_err)?))
    });
    reg(&m, rt, "elapsed_ms", |_, _, args| {
        let a = args.bind("elapsed_ms", &["start", "end"], 2)?;
        let (t0, t1) = (
            time_of(a[0].as_ref(), "elapsed_ms")?,
            time_of(a[1].as_ref(), "elapsed_ms")?,
        );
        Ok(Value::Float(crate::engine::runtime::elapsed_ms(t0, t1)))
    });
    // record_history(None | 'state' | 'all', max_entries)
    reg(&m, rt, "record_history", |_, rt, args| {
        let a = args.bind("record_history", &["enabled", "max_entries"], 1)?;
        let enabled = match a[0].as_ref() {
            None | Some(Value::None) => None,
            Some(v) => match v.as_str() {
                Some("all") => Some(true),
                Some("state") => Some(false),
                _ => {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        "enabled must be one of None, 'state' or 'all'",
                    ));
                }
            },
        };
        let max = match a[1].as_ref() {
            Some(Value::Int(n)) if *n > 0 => (*n).min(1 << 20) as usize,
            _ => 1 << 20,
        };
        rt.record_memory_history(enabled, max);
        Ok(Value::None)
    });
    // snapshot(): (segments, traces) as tuples; cuda_py.py makes PyTorch's dicts of them
    reg(&m, rt, "snapshot", |_, rt, _| {
        let (segments, traces) = rt.memory_snapshot();
        let int = |n: u64| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
        let line = |l: Option<u32>| l.map_or(Value::None, |l| Value::Int(i64::from(l)));
        let segments = segments
            .into_iter()
            .map(|(dev, s)| {
                let blocks = s
                    .blocks
                    .iter()
                    .map(|b| {
                        Value::tuple(vec![
                            int(b.address),
                            int(b.size),
                            int(b.requested_size),
                            Value::str(b.state),
                            line(b.line),
                        ])
                    })
                    .collect();
                Value::tuple(vec![
                    Value::Int(i64::from(dev)),
                    int(s.address),
                    int(s.total_size),
                    int(s.allocated_size),
                    int(s.active_size),
                    int(s.requested_size),
                    Value::str(s.segment_type),
                    Value::list(blocks),
                ])
            })
            .collect();
        let traces = traces
            .into_iter()
            .map(|entries| {
                Value::list(
                    entries
                        .iter()
                        .map(|e| {
                            Value::tuple(vec![
                                Value::str(e.action),
                                int(e.addr),
                                int(e.size),
                                Value::Int(i64::from(e.line)),
                                e.device_free.map_or(Value::None, int),
                            ])
                        })
                        .collect(),
                )
            })
            .collect();
        Ok(Value::tuple(vec![
            Value::list(segments),
            Value::list(traces),
        ]))
    });
    // worker_call(fn, arg, bad_fork, worker_id): a DataLoader worker's fetch, fn(arg). `bad_fork`: the
    // worker was forked after CUDA started, so any CUDA call in it raises; an exception comes
    // back to the main process as torch/_utils.py's ExceptionWrapper re-raises it.
    reg(&m, rt, "worker_call", |it, rt, args| {
        let a = args.bind("worker_call", &["fn", "arg", "bad_fork", "worker_id"], 4)?;
        let f = a[0].clone().unwrap_or_default();
        let arg = a[1].clone().unwrap_or_default();
        let bad_fork = a[2]
            .as_ref()
            .is_some_and(|v| matches!(v, Value::Bool(true)));
        let worker = a[3].as_ref().and_then(Value::as_int).unwrap_or(0);
        rt.set_in_bad_fork(bad_fork);
        let result = it.call(&f, Args::new(vec![arg]));
        rt.set_in_bad_fork(false);
        match result {
            Ok(v) => Ok(v),
            Err(e) if e.0.uncatchable => Err(e),
            Err(e) => {
                let (type_name, _, _) = it.exception_parts(&e);
                let original = it.script_error_of(e).traceback;
                let message = format!(
                    "Caught {type_name} in DataLoader worker process {worker}.\nOriginal {original}"
                );
                // ExceptionWrapper.reraise raises the worker's class again; a class the
                // interpreter cannot name here (the script's own) comes back as RuntimeError
                let class = ExcType::from_name(&type_name).unwrap_or(ExcType::RuntimeError);
                Err(PyException::new(class, message))
            }
        }
    });
    Ok(m.into_value())
}

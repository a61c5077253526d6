//! The stream model: deferred device-side asserts, sticky errors, launch blocking, timing.

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::error::{CUDA_ASSERT_MESSAGE, CUDA_ASSERT_MESSAGE_BLOCKING};
use cudatutor::engine::{Device, Operand, Reduction, Runtime, RuntimeConfig, Tensor};
use std::rc::Rc;

fn targets(rt: &Runtime, v: &[i64], dev: Device) -> Tensor {
    let s: Vec<Scalar> = v.iter().map(|&x| Scalar::Int(x)).collect();
    rt.tensor(&s, vec![v.len()], None, dev).unwrap()
}

/// Lines: 1 logits, 2 labels (has a 5 for 5 classes), 3 loss, 4 and 5 cheap ops, 6 item.
/// `warm`: line 1 also launches the multiply and add kernels, so lines 4 and 5 launch kernels
/// already loaded (which do not look at the context); otherwise line 4 is the multiply's first
/// launch.
fn script(rt: &Rc<Runtime>, warm: bool) -> Vec<(u32, Result<(), String>)> {
    let dev = Device::Cuda(0);
    let mut out = Vec::new();
    rt.set_line(1);
    let x = rt.randn(&[10, 5], None, dev, None).unwrap();
    if warm {
        let two = rt.mul(&x.clone().into(), &Operand::Scalar(Scalar::Int(2)));
        let one = rt.add(&x.clone().into(), &Operand::Scalar(Scalar::Int(1)));
        assert!(two.is_ok() && one.is_ok());
    }
    rt.set_line(2);
    let t = targets(rt, &[0, 1, 2, 3, 4, 5, 0, 1, 2, 3], dev);
    rt.set_line(3);
    let r = rt.cross_entropy(&x, &t, None, -100, Reduction::Mean);
    out.push((3, r.as_ref().map(|_| ()).map_err(|e| e.message.clone())));
    let Ok(loss) = r else { return out };
    rt.set_line(4);
    let r = rt.mul(&loss.clone().into(), &Operand::Scalar(Scalar::Int(2)));
    out.push((4, r.as_ref().map(|_| ()).map_err(|e| e.message.clone())));
    rt.set_line(5);
    let r = rt.add(&x.clone().into(), &Operand::Scalar(Scalar::Int(1)));
    out.push((5, r.as_ref().map(|_| ()).map_err(|e| e.message.clone())));
    rt.set_line(6);
    let r = rt.item(&loss);
    out.push((6, r.map(|_| ()).map_err(|e| e.message)));
    rt.set_line(7);
    let r = rt.add(&x.into(), &Operand::Scalar(Scalar::Int(1)));
    out.push((7, r.map(|_| ()).map_err(|e| e.message)));
    out
}

#[test]
fn deferred_assert_is_reported_at_the_sync() {
    let rt = Runtime::new(RuntimeConfig::default());
    let r = script(&rt, true);
    assert_eq!(r[0], (3, Ok(())));
    assert_eq!(r[1], (4, Ok(())));
    assert_eq!(r[2], (5, Ok(())));
    assert_eq!(r[3], (6, Err(CUDA_ASSERT_MESSAGE.to_string())));
    assert_eq!(r[4], (7, Err(CUDA_ASSERT_MESSAGE.to_string())), "sticky");
    let f = rt.cuda_failure().unwrap();
    assert_eq!((f.origin_line, f.reported_line), (3, Some(6)));
    assert_eq!(
        rt.device_log(),
        vec![
            "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:244: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed."
        ]
    );
    let ev = rt.events();
    let st: Vec<(u32, &str)> = ev
        .iter()
        .filter(|e| e.status != "ok")
        .map(|e| (e.line, e.status.name()))
        .collect();
    assert_eq!(st, vec![(3, "assert"), (6, "reported"), (7, "failed")]);
    let a = ev.iter().find(|e| e.status == "assert").unwrap();
    let rep = ev.iter().find(|e| e.status == "reported").unwrap();
    assert!(rep.host_end_us >= a.device_end_us.unwrap());
    // the cheap ops were issued before the device reached the end of the failing kernel
    let l4 = ev.iter().find(|e| e.line == 4).unwrap();
    assert!(l4.host_us < a.device_end_us.unwrap());
    assert!(ev.iter().all(|e| e.host_end_us >= e.host_us));
}

#[test]
fn launch_blocking_reports_at_the_origin() {
    let rt = Runtime::new(RuntimeConfig {
        launch_blocking: true,
        ..Default::default()
    });
    let r = script(&rt, false);
    assert_eq!(r, vec![(3, Err(CUDA_ASSERT_MESSAGE_BLOCKING.to_string()))]);
    let f = rt.cuda_failure().unwrap();
    assert_eq!((f.origin_line, f.reported_line), (3, Some(3)));
}

#[test]
fn the_first_launch_of_a_new_kernel_reports_the_failure() {
    // CUDA loads each kernel at its first launch (lazy module loading, the default since
    // CUDA 12) and that load returns the context's sticky error: PyTorch on an H200 raised at
    // `loss * 2`, one line after the failing cross_entropy (tests/fixtures/cuda/assert_deferred)
    let rt = Runtime::new(RuntimeConfig::default());
    let r = script(&rt, false);
    assert_eq!(r[0], (3, Ok(())));
    assert_eq!(r[1], (4, Err(CUDA_ASSERT_MESSAGE.to_string())));
    let f = rt.cuda_failure().unwrap();
    assert_eq!((f.origin_line, f.reported_line), (3, Some(4)));
}

#[test]
fn a_kernel_already_loaded_never_notices_the_failure() {
    // Measured on an H200 (scripts/gpu-trap-timing.py): `y * 2` launched 0 to 160 µs after a
    // failed nll_loss never raised once it had run before; the next synchronising call did.
    let rt = Runtime::new(RuntimeConfig::default());
    let dev = Device::Cuda(0);
    rt.set_line(1);
    let x = rt.randn(&[4, 3], None, dev, None).unwrap();
    let warm = rt.add(&x.clone().into(), &Operand::Scalar(Scalar::Int(1)));
    assert!(warm.is_ok());
    let t = targets(&rt, &[0, 7, 1, 2], dev);
    rt.set_line(2);
    let l = rt.nll_loss(&x, &t, None, -100, Reduction::Sum).unwrap();
    for line in 3..60 {
        rt.set_line(line);
        let r = rt.add(&x.clone().into(), &Operand::Scalar(Scalar::Int(1)));
        assert!(
            r.is_ok(),
            "line {line}: a loaded kernel reported the failure"
        );
    }
    rt.set_line(60);
    assert!(rt.item(&l).is_err());
    assert_eq!(rt.cuda_failure().unwrap().reported_line, Some(60));
}

#[test]
fn embedding_assert_on_cuda_and_cpu_error() {
    let rt = Runtime::new(RuntimeConfig::default());
    let w = rt.randn(&[10, 3], None, Device::Cuda(0), None).unwrap();
    let idx = targets(&rt, &[10], Device::Cuda(0));
    let out = rt.embedding(&w, &idx).unwrap();
    assert_eq!(out.shape(), &[1, 3]);
    assert!(rt.repr(&out).is_err());
    let log = rt.device_log();
    assert_eq!(log.len(), 3);
    assert_eq!(
        log[0],
        "/__w/pytorch/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1582: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed."
    );
    // one index: 2.15's small-index kernel, a block of min(dim, 128) = 3 threads that each
    // check the index, so threads 0, 1, 2 report
    assert!(log[2].contains("thread: [2,0,0]"), "{}", log[2]);
    // the CPU still works
    let c = rt.ones(&[2], None, Device::Cpu).unwrap();
    assert_eq!(rt.repr(&c).unwrap(), "tensor([1., 1.])");
}

#[test]
fn synchronize_and_memory_queries() {
    let rt = Runtime::new(RuntimeConfig::default());
    let dev = Device::Cuda(0);
    let x = rt.randn(&[256, 256], None, dev, None).unwrap();
    let y = rt.matmul(&x, &x).unwrap();
    let before = rt.host_us();
    let _ = rt.memory_allocated(0); // no sync
    assert_eq!(rt.host_us(), before);
    rt.synchronize(None).unwrap();
    let ev = rt.events();
    let mm = ev.iter().find(|e| e.op == "matmul").unwrap();
    assert!(rt.host_us() >= mm.device_end_us.unwrap());
    assert_eq!(y.shape(), &[256, 256]);
}

#[test]
fn devices_must_match() {
    let rt = Runtime::new(RuntimeConfig {
        gpus: 2,
        ..Default::default()
    });
    let a = rt.ones(&[2], None, Device::Cuda(0)).unwrap();
    let b = rt.ones(&[2], None, Device::Cuda(1)).unwrap();
    assert_eq!(
        rt.add(&a.clone().into(), &b.clone().into())
            .unwrap_err()
            .message,
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!"
    );
    let b0 = rt
        .to(&b, Some(Device::Cuda(0)), None, false, false, "to")
        .unwrap();
    assert_eq!(
        rt.tolist(&rt.add(&a.into(), &b0.into()).unwrap()).unwrap(),
        vec![Scalar::Float(2.0); 2]
    );
    assert_eq!(rt.memory_allocated(1), 512);
    // a CPU scalar tensor may join a CUDA op
    let s = rt
        .tensor(&[Scalar::Float(3.0)], vec![], None, Device::Cpu)
        .unwrap();
    assert!(rt.mul(&b.into(), &s.into()).is_ok());
}

#[test]
fn oom_after_assert_is_still_oom_and_timeline_converts() {
    let rt = Runtime::new(RuntimeConfig::default());
    let x = rt.randn(&[10], None, Device::Cuda(0), None).unwrap();
    let tl = rt.timeline();
    assert_eq!(
        tl.len(),
        1,
        "{:?}",
        tl.iter()
            .map(|e| (e.op.clone(), e.kind.name()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        (tl[0].op.as_str(), tl[0].kind.name(), tl[0].device),
        ("randn", "kernel", Some(0))
    );
    assert_eq!((tl[0].allocated, tl[0].reserved), (512, 2097152));
    drop(x);
    let tl = rt.timeline();
    assert_eq!((tl[1].kind.name(), tl[1].allocated), ("free", 0));
    let m = rt.memory_report();
    assert_eq!(
        (m.allocated, m.reserved, m.peak_allocated),
        (0, 2097152, 512)
    );
}

//! Engine-level checks of every value and message in pytorch-facts.md.

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::{
    DType, Device, DeviceSpec, ErrorKind, Operand, Reduction, Runtime, RuntimeConfig, Tensor,
};
use std::rc::Rc;

fn rt() -> Rc<Runtime> {
    Runtime::new(RuntimeConfig::default())
}

fn f(v: &[f64]) -> Vec<Scalar> {
    v.iter().map(|&x| Scalar::Float(x)).collect()
}
fn i(v: &[i64]) -> Vec<Scalar> {
    v.iter().map(|&x| Scalar::Int(x)).collect()
}
fn floats(rt: &Runtime, t: &Tensor) -> Vec<f64> {
    rt.tolist(t)
        .unwrap()
        .into_iter()
        .map(|s| s.as_f64())
        .collect()
}

fn logits(rt: &Runtime, dev: Device) -> Tensor {
    rt.tensor(&f(&[1.0, 2.0, 3.0, 1.0, 0.0, -1.0]), vec![2, 3], None, dev)
        .unwrap()
}

/// The CPU logits' cross-entropy against `targets` with no class weights and PyTorch's default
/// ignore_index (-100).
fn cpu_cross_entropy(rt: &Runtime, targets: &[i64], reduction: Reduction) -> Tensor {
    let x = logits(rt, Device::Cpu);
    let t = rt
        .tensor(&i(targets), vec![targets.len()], None, Device::Cpu)
        .unwrap();
    rt.cross_entropy(&x, &t, None, -100, reduction).unwrap()
}

#[test]
fn cross_entropy_values() {
    let rt = rt();
    let l = cpu_cross_entropy(&rt, &[2, 0], Reduction::Mean);
    assert_eq!(rt.item(&l).unwrap(), Scalar::Float(0.40760594606399536));
    let l = cpu_cross_entropy(&rt, &[2, 0], Reduction::None);
    assert_eq!(
        floats(&rt, &l),
        vec![0.40760594606399536, 0.40760594606399536]
    );
    let l = cpu_cross_entropy(&rt, &[2, 0], Reduction::Sum);
    assert_eq!(rt.item(&l).unwrap(), Scalar::Float(0.8152118921279907));
}

#[test]
fn softmax_values() {
    let rt = rt();
    let x = rt
        .tensor(&f(&[1.0, 2.0, 3.0]), vec![3], None, Device::Cpu)
        .unwrap();
    let s = rt.softmax(&x, 0, None).unwrap();
    assert_eq!(
        floats(&rt, &s),
        vec![0.09003057330846786, 0.2447284758090973, 0.6652409434318542]
    );
    let s = rt.log_softmax(&x, 0, None).unwrap();
    assert_eq!(
        floats(&rt, &s),
        vec![
            -2.4076058864593506,
            -1.4076058864593506,
            -0.40760594606399536
        ]
    );
}

#[test]
fn reductions_and_division() {
    let rt = rt();
    let x = rt
        .tensor(&f(&[1., 5., 2., 7., 0., 1.]), vec![2, 3], None, Device::Cpu)
        .unwrap();
    let a = rt.argmax(&x, Some(1), false, true).unwrap();
    assert_eq!(rt.tolist(&a).unwrap(), i(&[1, 0]));
    let x = rt
        .tensor(&f(&[1., 2., 3., 4.]), vec![2, 2], None, Device::Cpu)
        .unwrap();
    let s = rt.sum(&x, Some(&[1]), false, None).unwrap();
    assert_eq!(rt.tolist(&s).unwrap(), f(&[3.0, 7.0]));
    let one = rt.tensor(&f(&[1.0]), vec![1], None, Device::Cpu).unwrap();
    let d = rt
        .div(&one.into(), &Operand::Scalar(Scalar::Int(0)))
        .unwrap();
    assert_eq!(rt.item(&d).unwrap(), Scalar::Float(f64::INFINITY));
}

#[test]
fn randint_high_exclusive_and_sizes() {
    let rt = rt();
    let r = rt
        .randint(0, 6, &[100000], None, Device::Cpu, None)
        .unwrap();
    let m = rt.max_all(&r, true).unwrap();
    assert_eq!(rt.item(&m).unwrap(), Scalar::Int(5));
    let m = rt.max_all(&r, false).unwrap();
    assert_eq!(rt.item(&m).unwrap(), Scalar::Int(0));
    let x = rt.randn(&[10], None, Device::Cpu, None).unwrap();
    assert_eq!((x.element_size(), x.nbytes()), (4, 40));
    let x = rt.randn(&[10, 5], None, Device::Cpu, None).unwrap();
    assert_eq!(
        cudatutor::engine::tensor::size_repr(x.shape()),
        "torch.Size([10, 5])"
    );
    assert_eq!(x.size(1).unwrap(), 5);
}

#[test]
fn seeds_are_deterministic() {
    let a = rt();
    a.manual_seed(0);
    let x = a.randn(&[5], None, Device::Cpu, None).unwrap();
    let b = rt();
    b.manual_seed(0);
    let y = b.randn(&[5], None, Device::Cpu, None).unwrap();
    assert_eq!(x.values().unwrap(), y.values().unwrap());
    let z = b.randn(&[5], None, Device::Cpu, None).unwrap();
    assert_ne!(x.values().unwrap(), z.values().unwrap());
}

#[test]
fn devices() {
    let c = DeviceSpec::parse("cuda").unwrap();
    let c0 = DeviceSpec::parse("cuda:0").unwrap();
    assert_ne!(c, c0);
    assert_eq!(c.to_string(), "cuda");
    assert_eq!(
        DeviceSpec::new("cuda", Some(0)).unwrap().repr(),
        "device(type='cuda', index=0)"
    );
    assert_eq!(
        DeviceSpec::parse("cuda:x").unwrap_err().message,
        "Invalid device string: 'cuda:x'"
    );
    assert_eq!(
        DeviceSpec::parse("gpu").unwrap_err().message,
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: gpu"
    );
    let rt = rt();
    let x = rt
        .randn(&[3], None, rt.resolve_device(&c).unwrap(), None)
        .unwrap();
    assert_eq!(x.device().spec(), c0);
    assert_ne!(x.device().spec(), c);
}

fn err(r: cudatutor::engine::Result<impl std::fmt::Debug>) -> (ErrorKind, String) {
    let e = r.unwrap_err();
    (e.kind, e.message)
}

#[test]
fn host_errors() {
    let rt = rt();
    let cpu = Device::Cpu;
    let x = rt.randn(&[10, 5], None, cpu, None).unwrap();
    let t = rt
        .tensor(&i(&[0, 1, 2, 3, 4, 0, 1, 2, 3, 5]), vec![10], None, cpu)
        .unwrap();
    assert_eq!(
        err(rt.cross_entropy(&x, &t, None, -100, Reduction::Mean)),
        (ErrorKind::IndexError, "Target 5 is out of bounds.".into())
    );
    let t = rt
        .tensor(&i(&[0, 1, 2, 3, 4, 0, 1, 2, 3, -1]), vec![10], None, cpu)
        .unwrap();
    assert_eq!(
        err(rt.cross_entropy(&x, &t, None, -100, Reduction::Mean)),
        (ErrorKind::IndexError, "Target -1 is out of bounds.".into())
    );
    let x3 = rt.randn(&[3, 4], None, cpu, None).unwrap();
    let t3 = rt.tensor(&i(&[0, 4, 1]), vec![3], None, cpu).unwrap();
    assert_eq!(
        err(rt.nll_loss(&x3, &t3, None, -100, Reduction::Mean)),
        (ErrorKind::IndexError, "Target 4 is out of bounds.".into())
    );
    let t8 = rt.randint(0, 5, &[8], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.cross_entropy(&x, &t8, None, -100, Reduction::Mean)),
        (
            ErrorKind::ValueError,
            "Expected input batch_size (10) to match target batch_size (8).".into()
        )
    );
    let tf = rt.randn(&[10], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.cross_entropy(&x, &tf, None, -100, Reduction::Mean)),
        (
            ErrorKind::RuntimeError,
            "expected target dtype to be Long or Byte, but got Float".into()
        )
    );
    let inp = rt.randn(&[64, 100], None, cpu, None).unwrap();
    let w = rt.randn(&[256, 784], None, cpu, None).unwrap();
    let b = rt.randn(&[256], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.linear(&inp, &w, Some(&b))).1,
        "addmm: mat1 and mat2 shapes cannot be multiplied (64x100 and 784x256)"
    );
    let w2 = rt.randn(&[784, 256], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.matmul(&inp, &w2)).1,
        "mm: mat1 and mat2 shapes cannot be multiplied (64x100 and 784x256)"
    );
    let a = rt.randn(&[10], None, cpu, None).unwrap();
    let b5 = rt.randn(&[5], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.add(&a.clone().into(), &b5.clone().into())).1,
        "The size of tensor a (10) must match the size of tensor b (5) at non-singleton dimension 0"
    );
    let idx = rt.tensor(&i(&[7]), vec![1], None, cpu).unwrap();
    assert_eq!(
        err(rt.index_select(&b5, 0, &idx)),
        (ErrorKind::IndexError, "index out of range in self".into())
    );
    let emb = rt.randn(&[10, 3], None, cpu, None).unwrap();
    let idx10 = rt.tensor(&i(&[10]), vec![1], None, cpu).unwrap();
    assert_eq!(
        err(rt.embedding(&emb, &idx10)),
        (ErrorKind::IndexError, "index out of range in self".into())
    );
    assert_eq!(
        err(rt.getitem(&b5, &[cudatutor::engine::TensorIndex::Int(7)])),
        (
            ErrorKind::IndexError,
            "index 7 is out of bounds for dimension 0 with size 5".into()
        )
    );
    let mut g = rt.randn(&[3], None, cpu, None).unwrap();
    g.set_requires_grad(true).unwrap();
    assert_eq!(
        err(rt.numpy(&g)).1,
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    );
    let c = rt.randn(&[3], None, Device::Cuda(0), None).unwrap();
    assert_eq!(
        err(rt.numpy(&c)),
        (
            ErrorKind::TypeError,
            "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.".into()
        )
    );
    let r3 = rt.randn(&[3], None, cpu, None).unwrap();
    assert_eq!(
        err(rt.item(&r3)).1,
        "a Tensor with 3 elements cannot be converted to Scalar"
    );
    assert_eq!(
        err(rt.to_bool(&r3)).1,
        "Boolean value of Tensor with more than one value is ambiguous"
    );
    assert_eq!(
        err(a.view(&[3, 3])).1,
        "shape '[3, 3]' is invalid for input of size 10"
    );
    let m = rt.randn(&[2, 2], None, cpu, None).unwrap();
    let d = rt.ones(&[2, 2], Some(DType::Float64), cpu).unwrap();
    assert_eq!(
        err(rt.matmul(&m, &d)).1,
        "expected m1 and m2 to have the same dtype, but got: float != double"
    );
    let meta = rt.randn(&[10], None, Device::Meta, None).unwrap();
    assert_eq!(
        err(rt.add(&meta.into(), &a.clone().into())).1,
        "Tensor on device cpu is not on the expected device meta!"
    );
    assert_eq!(
        err(rt.add(&c.clone().into(), &r3.clone().into())).1,
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    );
    assert_eq!(
        err(rt.add(&r3.into(), &c.into())).1,
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    );
}

#[test]
fn linear_device_mismatch() {
    let rt = rt();
    let w = rt.randn(&[4, 3], None, Device::Cuda(0), None).unwrap();
    let b = rt.randn(&[4], None, Device::Cuda(0), None).unwrap();
    let x = rt.randn(&[2, 3], None, Device::Cpu, None).unwrap();
    assert_eq!(
        err(rt.linear(&x, &w, Some(&b))).1,
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)"
    );
}

#[test]
fn ignore_index_is_skipped_in_mean() {
    let rt = rt();
    let l = cpu_cross_entropy(&rt, &[2, -100], Reduction::Mean);
    assert_eq!(rt.item(&l).unwrap(), Scalar::Float(0.40760594606399536));
}

#[test]
fn cuda_memory_counters() {
    let rt = rt();
    let x = rt.randn(&[10], None, Device::Cuda(0), None).unwrap();
    assert_eq!(
        (rt.memory_allocated(0), rt.memory_reserved(0)),
        (512, 2097152)
    );
    drop(x);
    assert_eq!(
        (rt.memory_allocated(0), rt.memory_reserved(0)),
        (0, 2097152)
    );
    rt.empty_cache();
    assert_eq!((rt.memory_allocated(0), rt.memory_reserved(0)), (0, 0));
    // 3 MiB then 12 MiB share one 20 MiB segment
    let a = rt.zeros(&[3 << 18], None, Device::Cuda(0)).unwrap();
    assert_eq!(rt.memory_reserved(0), 20 << 20);
    let b = rt.zeros(&[3 << 20], None, Device::Cuda(0)).unwrap();
    assert_eq!(rt.memory_reserved(0), 20 << 20);
    assert_eq!(rt.memory_allocated(0), 15 << 20);
    assert_eq!(rt.max_memory_allocated(0), 15 << 20);
    drop(b);
    // a view keeps the storage alive
    let v = a.view(&[-1]).unwrap();
    drop(a);
    assert_eq!(rt.memory_allocated(0), 3 << 20);
    drop(v);
    assert_eq!(rt.memory_allocated(0), 0);
    assert_eq!(rt.max_memory_allocated(0), 15 << 20);
    rt.reset_peak_memory_stats(0);
    assert_eq!(rt.max_memory_allocated(0), 0);
}

#[test]
fn out_of_memory() {
    let rt = Runtime::new(RuntimeConfig {
        gpu_memory: 1 << 30,
        ..Default::default()
    });
    let _a = rt.zeros(&[200 << 20], None, Device::Cuda(0)).unwrap(); // 800 MiB
    let e = rt.zeros(&[100 << 20], None, Device::Cuda(0)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfMemoryError);
    assert_eq!(
        e.message,
        "CUDA out of memory. Tried to allocate 400.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 224.00 MiB is free. Including non-PyTorch memory, this process has 800.00 MiB memory in use. Of the allocated memory 800.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
    );
}

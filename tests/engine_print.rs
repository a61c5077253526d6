//! PyTorch's printing rules (torch/_tensor_str.py), at engine level.

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::{DType, Device, Runtime, RuntimeConfig, Tensor};
use std::rc::Rc;

fn rt() -> Rc<Runtime> {
    Runtime::new(RuntimeConfig::default())
}

fn show(rt: &Runtime, v: &[f64], shape: Vec<usize>, dt: Option<DType>, dev: Device) -> String {
    let vals: Vec<Scalar> = v.iter().map(|&x| Scalar::Float(x)).collect();
    let t = rt.tensor(&vals, shape, dt, dev).unwrap();
    rt.repr(&t).unwrap()
}

/// `t` prints as PyTorch prints it: `expected`.
fn assert_prints(rt: &Runtime, t: &Tensor, expected: &str) {
    assert_eq!(rt.repr(t).unwrap(), expected);
}

#[test]
fn facts() {
    let rt = rt();
    assert_eq!(
        show(&rt, &[1.0, 2.5], vec![2], None, Device::Cpu),
        "tensor([1.0000, 2.5000])"
    );
    let t = rt
        .tensor(
            &[Scalar::Int(1), Scalar::Int(2)],
            vec![2],
            None,
            Device::Cpu,
        )
        .unwrap();
    assert_prints(&rt, &t, "tensor([1, 2])");
    assert_eq!(
        show(&rt, &[1., 2., 3., 4.], vec![2, 2], None, Device::Cpu),
        "tensor([[1., 2.],\n        [3., 4.]])"
    );
    let a = rt
        .arange(0.0, 2000.0, 1.0, true, None, Device::Cpu)
        .unwrap();
    assert_prints(
        &rt,
        &a,
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03])",
    );
    assert_eq!(
        show(&rt, &[1., 2.], vec![2], None, Device::Cuda(0)),
        "tensor([1., 2.], device='cuda:0')"
    );
}

#[test]
fn scalars_empty_dtypes_bools() {
    let rt = rt();
    assert_eq!(show(&rt, &[3.0], vec![], None, Device::Cpu), "tensor(3.)");
    assert_eq!(
        show(&rt, &[0.5], vec![], None, Device::Cpu),
        "tensor(0.5000)"
    );
    assert_eq!(show(&rt, &[], vec![0], None, Device::Cpu), "tensor([])");
    let e = rt.zeros(&[0], Some(DType::Int64), Device::Cpu).unwrap();
    assert_prints(&rt, &e, "tensor([], dtype=torch.int64)");
    let e = rt.zeros(&[0, 3], None, Device::Cpu).unwrap();
    assert_prints(&rt, &e, "tensor([], size=(0, 3))");
    let t = rt
        .tensor(
            &[Scalar::Bool(true), Scalar::Bool(false)],
            vec![2],
            None,
            Device::Cpu,
        )
        .unwrap();
    assert_prints(&rt, &t, "tensor([ True, False])");
    let t = rt
        .tensor(
            &[Scalar::Int(1), Scalar::Int(-20)],
            vec![2],
            Some(DType::Int32),
            Device::Cpu,
        )
        .unwrap();
    assert_prints(&rt, &t, "tensor([  1, -20], dtype=torch.int32)");
    assert_eq!(
        show(&rt, &[1.5, 2.0], vec![2], Some(DType::Float64), Device::Cpu),
        "tensor([1.5000, 2.0000], dtype=torch.float64)"
    );
    assert_eq!(
        show(&rt, &[0.00001, 1.0], vec![2], None, Device::Cpu),
        "tensor([1.0000e-05, 1.0000e+00])"
    );
    assert_eq!(
        show(
            &rt,
            &[1.0, f64::INFINITY, f64::NAN],
            vec![3],
            None,
            Device::Cpu
        ),
        "tensor([1., inf, nan])"
    );
    assert_eq!(
        show(&rt, &[-1.5, 10.25], vec![2], None, Device::Cpu),
        "tensor([-1.5000, 10.2500])"
    );
    let m = rt.randn(&[10], None, Device::Meta, None).unwrap();
    assert_prints(&rt, &m, "tensor(..., device='meta', size=(10,))");
}

#[test]
fn requires_grad_and_grad_fn() {
    let rt = rt();
    let mut t = rt.ones(&[2], None, Device::Cpu).unwrap();
    t.set_requires_grad(true).unwrap();
    assert_prints(&rt, &t, "tensor([1., 1.], requires_grad=True)");
    let y = rt.mul(&t.clone().into(), &Scalar::Int(2).into()).unwrap();
    assert_prints(&rt, &y, "tensor([2., 2.], grad_fn=<MulBackward0>)");
}

#[test]
fn wrapping_and_summaries() {
    let rt = rt();
    let a = rt.arange(0.0, 30.0, 1.0, false, None, Device::Cpu).unwrap();
    assert_prints(
        &rt,
        &a,
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])",
    );
    let b = rt
        .arange(0.0, 2000.0, 1.0, false, None, Device::Cpu)
        .unwrap();
    let b = b.view(&[40, 50]).unwrap();
    assert_prints(
        &rt,
        &b,
        "tensor([[   0,    1,    2,  ...,   47,   48,   49],\n        [  50,   51,   52,  ...,   97,   98,   99],\n        [ 100,  101,  102,  ...,  147,  148,  149],\n        ...,\n        [1850, 1851, 1852,  ..., 1897, 1898, 1899],\n        [1900, 1901, 1902,  ..., 1947, 1948, 1949],\n        [1950, 1951, 1952,  ..., 1997, 1998, 1999]])",
    );
    let c = rt.zeros(&[2, 2, 2], None, Device::Cpu).unwrap();
    assert_prints(
        &rt,
        &c,
        "tensor([[[0., 0.],\n         [0., 0.]],\n\n        [[0., 0.],\n         [0., 0.]]])",
    );
    // suffix wraps past 80 columns
    let d = rt
        .arange(0.0, 17.0, 1.0, true, None, Device::Cuda(0))
        .unwrap();
    assert_prints(
        &rt,
        &d,
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16.], device='cuda:0')",
    );
}

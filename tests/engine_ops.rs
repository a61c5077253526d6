//! Type promotion, broadcasting, views, indexing, reductions and the nn ops.

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::{
    BinaryOp, DType, Device, Operand, Reduction, Runtime, RuntimeConfig, Tensor, TensorIndex,
    UnaryOp,
};
use std::rc::Rc;

fn rt() -> Rc<Runtime> {
    Runtime::new(RuntimeConfig::default())
}
fn ft(rt: &Runtime, v: &[f64], shape: Vec<usize>) -> Tensor {
    let s: Vec<Scalar> = v.iter().map(|&x| Scalar::Float(x)).collect();
    rt.tensor(&s, shape, None, Device::Cpu).unwrap()
}
fn it(rt: &Runtime, v: &[i64], shape: Vec<usize>) -> Tensor {
    let s: Vec<Scalar> = v.iter().map(|&x| Scalar::Int(x)).collect();
    rt.tensor(&s, shape, None, Device::Cpu).unwrap()
}
fn vals(t: &Tensor) -> Vec<f64> {
    t.values().unwrap()
}
fn op(t: &Tensor) -> Operand {
    t.into()
}

#[test]
fn promotion_with_scalars_and_tensors() {
    let rt = rt();
    let i = it(&rt, &[1, 2, 3], vec![3]);
    assert_eq!(
        rt.add(&op(&i), &Scalar::Float(0.5).into()).unwrap().dtype(),
        DType::Float32
    );
    assert_eq!(
        rt.add(&op(&i), &Scalar::Int(1).into()).unwrap().dtype(),
        DType::Int64
    );
    assert_eq!(
        rt.div(&op(&i), &Scalar::Int(2).into()).unwrap().dtype(),
        DType::Float32
    );
    assert_eq!(
        vals(&rt.div(&op(&i), &Scalar::Int(2).into()).unwrap()),
        vec![0.5, 1.0, 1.5]
    );
    let i32t = rt
        .to(&i, None, Some(DType::Int32), false, false, "to")
        .unwrap();
    assert_eq!(
        rt.mul(&op(&i32t), &Scalar::Int(3).into()).unwrap().dtype(),
        DType::Int32
    );
    let f = ft(&rt, &[1.0, 2.0, 3.0], vec![3]);
    let d = rt.ones(&[], Some(DType::Float64), Device::Cpu).unwrap();
    assert_eq!(rt.add(&op(&f), &op(&d)).unwrap().dtype(), DType::Float32);
    assert_eq!(rt.add(&op(&i), &op(&d)).unwrap().dtype(), DType::Float64);
    let b = rt
        .binary(BinaryOp::Gt, &op(&f), &Scalar::Float(1.5).into())
        .unwrap();
    assert_eq!(b.dtype(), DType::Bool);
    assert_eq!(vals(&b), vec![0.0, 1.0, 1.0]);
    assert_eq!(rt.add(&op(&b), &op(&b)).unwrap().dtype(), DType::Bool);
    assert_eq!(
        rt.add(&op(&b), &Scalar::Int(1).into()).unwrap().dtype(),
        DType::Int64
    );
    assert!(
        rt.sub(&op(&b), &op(&b))
            .unwrap_err()
            .message
            .starts_with("Subtraction, the `-` operator, with two bool tensors")
    );
    // Python's rounding toward -inf for integer // and % by a number.
    for (binary, by, want) in [
        (BinaryOp::FloorDiv, 2, [-4.0, 3.0]),
        (BinaryOp::Rem, 3, [2.0, 1.0]),
    ] {
        let x = it(&rt, &[-7, 7], vec![2]);
        let out = rt.binary(binary, &op(&x), &Scalar::Int(by).into()).unwrap();
        assert_eq!(vals(&out), want, "{binary:?} by {by}");
    }
    assert_eq!(
        rt.binary(BinaryOp::Pow, &op(&i), &Scalar::Int(2).into())
            .unwrap()
            .dtype(),
        DType::Int64
    );
    // float32 rounding: 0.1 + 0.2 in float32
    let a = ft(&rt, &[0.1], vec![1]);
    let s = rt.add(&op(&a), &Scalar::Float(0.2).into()).unwrap();
    assert_eq!(vals(&s)[0], (0.1f32 + 0.2f32) as f64);
}

#[test]
fn broadcasting() {
    let rt = rt();
    let a = ft(&rt, &[1., 2., 3.], vec![3, 1]);
    let b = ft(&rt, &[10., 20.], vec![2]);
    let c = rt.add(&op(&a), &op(&b)).unwrap();
    assert_eq!(c.shape(), &[3, 2]);
    assert_eq!(vals(&c), vec![11., 21., 12., 22., 13., 23.]);
    let x = rt.zeros(&[4, 3], None, Device::Cpu).unwrap();
    let y = rt.zeros(&[4], None, Device::Cpu).unwrap();
    assert_eq!(
        rt.add(&op(&x), &op(&y)).unwrap_err().message,
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
    );
}

#[test]
fn views_share_storage() {
    let rt = rt();
    let x = rt.arange(0.0, 6.0, 1.0, false, None, Device::Cpu).unwrap();
    let v = x.view(&[2, 3]).unwrap();
    let t = v.t().unwrap();
    assert_eq!(t.shape(), &[3, 2]);
    assert!(!t.is_contiguous());
    assert_eq!(vals(&t), vec![0., 3., 1., 4., 2., 5.]);
    assert!(t.view(&[6]).is_err());
    let r = rt.reshape(&t, &[6]).unwrap();
    assert_eq!(vals(&r), vec![0., 3., 1., 4., 2., 5.]);
    assert!(!r.shares_storage(&x));
    rt.setitem(
        &v,
        &[TensorIndex::Int(0), TensorIndex::Int(1)],
        &Scalar::Int(42).into(),
    )
    .unwrap();
    assert_eq!(vals(&x)[1], 42.0);
    assert_eq!(v.unsqueeze(0).unwrap().shape(), &[1, 2, 3]);
    assert_eq!(v.unsqueeze(-1).unwrap().shape(), &[2, 3, 1]);
    assert_eq!(
        v.unsqueeze(0).unwrap().squeeze(None).unwrap().shape(),
        &[2, 3]
    );
    assert_eq!(v.permute(&[1, 0]).unwrap().shape(), &[3, 2]);
    let e = ft(&rt, &[1., 2.], vec![2, 1]).expand(&[2, 3]).unwrap();
    assert_eq!(vals(&e), vec![1., 1., 1., 2., 2., 2.]);
    assert_eq!(x.view(&[-1, 2]).unwrap().shape(), &[3, 2]);
}

#[test]
fn indexing() {
    let rt = rt();
    let x = rt
        .arange(0.0, 12.0, 1.0, false, None, Device::Cpu)
        .unwrap()
        .view(&[3, 4])
        .unwrap();
    let g = |items: &[TensorIndex]| rt.getitem(&x, items).unwrap();
    assert_eq!(vals(&g(&[TensorIndex::Int(-1)])), vec![8., 9., 10., 11.]);
    assert_eq!(
        vals(&g(&[
            TensorIndex::Slice(None, None, None),
            TensorIndex::Int(1)
        ])),
        vec![1., 5., 9.]
    );
    assert_eq!(
        vals(&g(&[
            TensorIndex::Slice(None, None, Some(2)),
            TensorIndex::Slice(Some(1), Some(3), None)
        ])),
        vec![1., 2., 9., 10.]
    );
    assert_eq!(
        g(&[TensorIndex::None, TensorIndex::Ellipsis]).shape(),
        &[1, 3, 4]
    );
    assert_eq!(
        g(&[TensorIndex::Ellipsis, TensorIndex::Int(0)]).shape(),
        &[3]
    );
    let mask = rt
        .binary(BinaryOp::Gt, &op(&x), &Scalar::Int(8).into())
        .unwrap();
    assert_eq!(
        vals(&g(&[TensorIndex::Tensor(mask.clone())])),
        vec![9., 10., 11.]
    );
    let idx = it(&rt, &[2, 0], vec![2]);
    assert_eq!(
        vals(&g(&[TensorIndex::Tensor(idx.clone())])),
        vec![8., 9., 10., 11., 0., 1., 2., 3.]
    );
    let cols = it(&rt, &[1, 3], vec![2]);
    assert_eq!(
        vals(&g(&[TensorIndex::Tensor(idx), TensorIndex::Tensor(cols)])),
        vec![9., 3.]
    );
    assert_eq!(
        rt.getitem(
            &x,
            &[
                TensorIndex::Int(0),
                TensorIndex::Int(0),
                TensorIndex::Int(0)
            ]
        )
        .unwrap_err()
        .message,
        "too many indices for tensor of dimension 2"
    );
    let bad = it(&rt, &[5], vec![1]);
    assert_eq!(
        rt.getitem(&x, &[TensorIndex::Tensor(bad)])
            .unwrap_err()
            .message,
        "index 5 is out of bounds for dimension 0 with size 3"
    );
    let y = rt.clone_tensor(&x).unwrap();
    rt.setitem(&y, &[TensorIndex::Tensor(mask)], &Scalar::Int(0).into())
        .unwrap();
    assert_eq!(vals(&rt.sum(&y, None, false, None).unwrap()), vec![36.0]);
}

#[test]
fn reductions() {
    let rt = rt();
    let x = ft(&rt, &[1., 5., 2., 7., 0., 1.], vec![2, 3]);
    let (v, i) = rt.max_dim(&x, 1, false, true).unwrap();
    assert_eq!((vals(&v), vals(&i)), (vec![5., 7.], vec![1., 0.]));
    assert_eq!(i.dtype(), DType::Int64);
    let (v, _) = rt.max_dim(&x, 0, true, false).unwrap();
    assert_eq!(v.shape(), &[1, 3]);
    assert_eq!(
        vals(&rt.mean(&x, None, false).unwrap()),
        [16.0f32 as f64 / 6.0f32 as f64]
            .iter()
            .map(|v| (*v as f32) as f64)
            .collect::<Vec<_>>()
    );
    assert_eq!(vals(&rt.argmax(&x, None, false, true).unwrap()), vec![3.0]);
    assert_eq!(
        vals(&rt.argmax(&x.t().unwrap(), None, false, true).unwrap()),
        vec![1.0]
    );
    let i = it(&rt, &[1, 2, 3], vec![3]);
    assert_eq!(
        rt.mean(&i, None, false).unwrap_err().message,
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    );
    assert_eq!(rt.sum(&i, None, false, None).unwrap().dtype(), DType::Int64);
    let b = rt
        .binary(BinaryOp::Gt, &op(&i), &Scalar::Int(2).into())
        .unwrap();
    assert_eq!(vals(&rt.any(&b, None, false).unwrap()), vec![1.0]);
    assert_eq!(vals(&rt.all(&b, None, false).unwrap()), vec![0.0]);
    assert_eq!(vals(&rt.sum(&b, None, false, None).unwrap()), vec![1.0]);
    assert_eq!(vals(&rt.prod(&i, None, false).unwrap()), vec![6.0]);
}

#[test]
fn nn_ops() {
    let rt = rt();
    let a = ft(&rt, &[1., 2., 3., 4.], vec![2, 2]);
    let b = ft(&rt, &[5., 6., 7., 8.], vec![2, 2]);
    assert_eq!(vals(&rt.matmul(&a, &b).unwrap()), vec![19., 22., 43., 50.]);
    let v = ft(&rt, &[1., 1.], vec![2]);
    assert_eq!(vals(&rt.matmul(&a, &v).unwrap()), vec![3., 7.]);
    assert_eq!(rt.matmul(&v, &v).unwrap().shape(), &[] as &[usize]);
    let bias = ft(&rt, &[1., -1.], vec![2]);
    assert_eq!(
        vals(&rt.linear(&a, &b, Some(&bias)).unwrap()),
        vec![18., 22., 40., 52.]
    );
    let r = rt
        .unary(UnaryOp::Relu, &ft(&rt, &[-1., 2.], vec![2]))
        .unwrap();
    assert_eq!(vals(&r), vec![0., 2.]);
    let c = rt
        .clamp(
            &ft(&rt, &[-1., 0.5, 2.], vec![3]),
            Some(Scalar::Float(0.0)),
            Some(Scalar::Float(1.0)),
        )
        .unwrap();
    assert_eq!(vals(&c), vec![0., 0.5, 1.]);
    let g = rt.gather(&a, 1, &it(&rt, &[1, 0], vec![2, 1])).unwrap();
    assert_eq!(vals(&g), vec![2., 3.]);
    let cat = rt.cat(&[a.clone(), b.clone()], 0).unwrap();
    assert_eq!(cat.shape(), &[4, 2]);
    let st = rt.stack(&[v.clone(), v.clone()], 1).unwrap();
    assert_eq!(st.shape(), &[2, 2]);
    assert!(
        rt.cat(&[a.clone(), v.clone()], 0)
            .unwrap_err()
            .message
            .starts_with("Tensors must have same number of dimensions")
    );
    let w = ft(&rt, &[2.0, 1.0], vec![2]);
    let x = ft(&rt, &[0.0, 0.0, 0.0, 0.0], vec![2, 2]);
    let t = it(&rt, &[0, 1], vec![2]);
    let l = rt
        .cross_entropy(&x, &t, Some(&w), -100, Reduction::Mean)
        .unwrap();
    assert!((vals(&l)[0] - std::f64::consts::LN_2).abs() < 1e-6);
    let e = rt.embedding(&a, &it(&rt, &[1, 1, 0], vec![3])).unwrap();
    assert_eq!(vals(&e), vec![3., 4., 3., 4., 1., 2.]);
    let nz = rt.nonzero(&ft(&rt, &[0., 1., 0., 2.], vec![2, 2])).unwrap();
    assert_eq!(
        (nz.shape().to_vec(), vals(&nz)),
        (vec![2, 2], vec![0., 1., 1., 1.])
    );
    let wh = rt
        .where_(
            &rt.binary(BinaryOp::Gt, &op(&a), &Scalar::Int(2).into())
                .unwrap(),
            &op(&a),
            &Scalar::Float(0.0).into(),
        )
        .unwrap();
    assert_eq!(vals(&wh), vec![0., 0., 3., 4.]);
}

#[test]
fn conversions() {
    let rt = rt();
    let x = ft(&rt, &[1.5, -2.5], vec![2]);
    let i = rt
        .to(&x, None, Some(DType::Int64), false, false, "long")
        .unwrap();
    assert_eq!(vals(&i), vec![1.0, -2.0]);
    let c = rt
        .to(&x, Some(Device::Cuda(0)), None, false, false, "cuda")
        .unwrap();
    assert!(c.is_cuda());
    let same = rt
        .to(&c, Some(Device::Cuda(0)), None, false, false, "cuda")
        .unwrap();
    assert!(same.shares_storage(&c));
    let back = rt
        .to(&c, Some(Device::Cpu), None, false, false, "cpu")
        .unwrap();
    assert_eq!(
        rt.tolist(&back).unwrap(),
        vec![Scalar::Float(1.5), Scalar::Float(-2.5)]
    );
    let p = rt.pin_memory(&x).unwrap();
    assert!(p.is_pinned());
    assert!(rt.pin_memory(&c).is_err());
    let u = rt
        .to(
            &it(&rt, &[300, -1], vec![2]),
            None,
            Some(DType::UInt8),
            false,
            false,
            "to",
        )
        .unwrap();
    assert_eq!(vals(&u), vec![44.0, 255.0]);
}

#[test]
fn phantom_tensors_count_memory_only() {
    // values are kept up to the host memory limit: past it a CUDA tensor is a phantom
    let rt = Runtime::new(RuntimeConfig {
        host_mem_limit: Some(256 << 20),
        ..RuntimeConfig::default()
    });
    let x = rt
        .randn(&[1 << 13, 1 << 13, 4], None, Device::Cuda(0), None)
        .unwrap(); // 1 GiB
    assert_eq!(rt.memory_allocated(0), 1 << 30);
    let y = rt.mul(&op(&x), &Scalar::Int(2).into()).unwrap();
    assert_eq!(rt.memory_allocated(0), 2 << 30);
    assert!(y.values().is_err());
    drop((x, y));
    assert_eq!(rt.memory_allocated(0), 0);
}

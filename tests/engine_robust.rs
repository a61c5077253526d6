//! Every op over a grid of shapes, dtypes and devices: errors are fine, panics are not.

use cudatutor::engine::dtype::Scalar;
use cudatutor::engine::{
    BinaryOp, DType, Device, Operand, Reduction, Runtime, RuntimeConfig, Tensor, TensorIndex,
    UnaryOp,
};

fn make(rt: &Runtime, shape: &[usize], dt: DType, dev: Device) -> Option<Tensor> {
    let t = rt.randn(shape, None, dev, None).ok()?;
    let t = rt.mul(&t.into(), &Scalar::Int(3).into()).ok()?;
    rt.to(&t, None, Some(dt), false, false, "to").ok()
}

#[test]
fn no_op_panics() {
    grid(false);
}

#[test]
fn no_op_panics_after_a_device_assert_with_launch_blocking() {
    grid(true);
}

fn grid(poison: bool) {
    let rt = Runtime::new(RuntimeConfig {
        gpus: 2,
        gpu_memory: 1 << 30,
        launch_blocking: poison,
        ..Default::default()
    });
    if poison {
        let w = rt.randn(&[3, 2], None, Device::Cuda(0), None).unwrap();
        let i = rt
            .tensor(&[Scalar::Int(9)], vec![1], None, Device::Cuda(0))
            .unwrap();
        assert!(rt.embedding(&w, &i).is_err());
    }
    let shapes: &[&[usize]] = &[
        &[],
        &[0],
        &[1],
        &[3],
        &[2, 3],
        &[3, 1],
        &[1, 3],
        &[2, 0],
        &[2, 3, 4],
    ];
    let dtypes = [
        DType::Float32,
        DType::Float64,
        DType::Int64,
        DType::Int32,
        DType::UInt8,
        DType::Bool,
    ];
    let devs = [Device::Cpu, Device::Cuda(0), Device::Cuda(1), Device::Meta];
    let bins = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::FloorDiv,
        BinaryOp::Rem,
        BinaryOp::Pow,
        BinaryOp::Eq,
        BinaryOp::Lt,
        BinaryOp::BitAnd,
        BinaryOp::LogicalXor,
        BinaryOp::Maximum,
    ];
    let unas = [
        UnaryOp::Neg,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Relu,
        UnaryOp::BitNot,
        UnaryOp::Round,
        UnaryOp::Sigmoid,
    ];
    let mut tensors = Vec::new();
    for s in shapes {
        for &dt in &dtypes {
            for &d in &devs {
                if let Some(t) = make(&rt, s, dt, d) {
                    tensors.push(t);
                }
            }
        }
    }
    let idx_items = |n: i64| -> Vec<Vec<TensorIndex>> {
        vec![
            vec![TensorIndex::Int(0)],
            vec![TensorIndex::Int(-1)],
            vec![TensorIndex::Int(n)],
            vec![TensorIndex::Slice(Some(-2), None, Some(2))],
            vec![TensorIndex::None, TensorIndex::Ellipsis],
            vec![TensorIndex::Ellipsis, TensorIndex::Int(0)],
            vec![TensorIndex::Ellipsis, TensorIndex::Ellipsis],
        ]
    };
    assert!(tensors.len() > 100, "{}", tensors.len());
    for (k, a) in tensors.iter().enumerate() {
        for off in [3usize, 11, 29] {
            let b = &tensors[(k * 7 + off) % tensors.len()];
            for op in bins {
                let _ = rt.binary(op, &a.into(), &b.into());
                let _ = rt.binary(op, &a.into(), &Scalar::Float(2.5).into());
                let _ = rt.binary(op, &Scalar::Int(-2).into(), &a.into());
            }
            for op in unas {
                let _ = rt.unary(op, a);
            }
            let _ = rt.sum(a, None, false, None);
            let _ = rt.sum(a, Some(&[-1]), true, None);
            let _ = rt.mean(a, Some(&[0]), false);
            let _ = rt.max_dim(a, 0, false, true);
            let _ = rt.max_all(a, false);
            let _ = rt.argmax(a, None, false, true);
            let _ = rt.argmax(a, Some(1), true, false);
            let _ = rt.var(a, None, 1.0, false, true);
            let _ = rt.any(a, Some(0), false);
            let _ = rt.prod(a, None, false);
            let _ = rt.matmul(a, b);
            let _ = rt.matmul(a, a);
            let _ = rt.linear(a, b, Some(a));
            let _ = rt.softmax(a, -1, None);
            let _ = rt.log_softmax(a, 0, None);
            let _ = rt.cross_entropy(a, b, None, -100, Reduction::Mean);
            let _ = rt.nll_loss(a, b, Some(a), 0, Reduction::None);
            let _ = rt.index_select(a, 0, b);
            let _ = rt.embedding(a, b);
            let _ = rt.gather(a, 0, b);
            let _ = rt.cat(&[a.clone(), b.clone()], 0);
            let _ = rt.stack(&[a.clone(), a.clone()], -1);
            let _ = rt.nonzero(a);
            let _ = rt.masked_fill(a, b, Scalar::Int(1));
            let _ = rt.where_(b, &a.into(), &Scalar::Float(0.0).into());
            let _ = rt.clamp(a, Some(Scalar::Int(0)), None);
            let _ = rt.repr(a);
            let _ = rt.item(a);
            let _ = rt.tolist(a);
            let _ = rt.to_bool(a);
            let _ = rt.numpy(a);
            let _ = rt.clone_tensor(a);
            let _ = rt.reshape(a, &[-1]);
            let _ = rt.reshape(a, &[2, -1]);
            let _ = a.view(&[-1, 3]);
            let _ = a.t();
            let _ = a.permute(&[1, 0]);
            let _ = a.expand(&[2, 2, 3]);
            let _ = a.squeeze(Some(0));
            let _ = a.unsqueeze(-1);
            let _ = a.transpose(0, -1);
            let _ = rt.to(
                a,
                Some(Device::Cuda(1)),
                Some(DType::Float64),
                false,
                false,
                "to",
            );
            let _ = rt.to(a, Some(Device::Cpu), None, true, false, "to");
            let _ = rt.pin_memory(a);
            let n = a.shape().first().copied().unwrap_or(0) as i64;
            for items in idx_items(n) {
                let _ = rt.getitem(a, &items);
                let _ = rt.setitem(a, &items, &Scalar::Int(1).into());
                let _ = rt.setitem(a, &items, &Operand::Tensor(b.clone()));
            }
            let _ = rt.getitem(a, &[TensorIndex::Tensor(b.clone())]);
            let _ = rt.setitem(a, &[TensorIndex::Tensor(b.clone())], &Scalar::Int(0).into());
            let _ = rt.inplace(BinaryOp::Add, a, &b.into());
            let _ = rt.copy_(a, b, "copy_");
            let _ = rt.fill_(a, Scalar::Float(1.5));
            let _ = rt.normal_(a, 0.0, 1.0, None);
        }
    }
    let _ = rt.synchronize(Some(0));
    let _ = rt.synchronize(Some(1));
    let _ = rt.randperm(0, None, Device::Cpu, None);
    let _ = rt.arange(0.0, 1.0, 0.0, false, None, Device::Cpu);
    let _ = rt.linspace(0.0, 1.0, 0, None, Device::Cpu);
    let _ = rt.randint(5, 5, &[3], None, Device::Cpu, None);
    let _ = rt.cat(&[], 0);
    let _ = rt.stack(&[], 0);
    let _ = rt.zeros(&[1 << 40], None, Device::Cuda(0));
    let _ = rt.set_device(5);
    assert!(rt.timeline().len() > 1000);
    assert!(!poison || rt.cuda_failure().is_some());
}

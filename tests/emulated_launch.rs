//! The emulated device's launch path: the real kernels of kernels/*.cu, compiled for the CPU
//! by build.rs, looked up by entry name and launched with a grid, a block and the `void**`
//! argument array, exactly as the cuda device launches them.

use cudatutor::engine::cuda::emulated::{self, EmulatedDevice};
use cudatutor::engine::cuda::gpu::GpuDevice;
use cudatutor::engine::cuda::kernels::KERNEL_FILES;
use cudatutor::engine::cuda::launch::{DeviceError, DevicePtr, Dim3, KernelArgs, LaunchConfig};

fn device() -> EmulatedDevice {
    assert!(emulated::built(), "{}", emulated::NOT_BUILT);
    EmulatedDevice::new(1 << 30, 1 << 30).unwrap()
}

fn upload<T: Copy>(d: &EmulatedDevice, v: &[T]) -> DevicePtr {
    let bytes = std::mem::size_of_val(v);
    let p = d.mem_alloc(bytes.max(1) as u64).unwrap();
    // SAFETY: reading a slice of plain values as bytes.
    let raw = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), bytes) };
    d.copy_h2d(p, raw, false).unwrap();
    p
}

fn download<T: Copy + Default>(d: &EmulatedDevice, p: DevicePtr, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: writing plain values through their bytes.
    let raw = unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(&v[..]))
    };
    d.copy_d2h(raw, p).unwrap();
    v
}

/// Launches the 2-d nll_loss forward (mean over 4 samples of 3 classes, no class weights,
/// ignore_index -100) with one block of 32 threads: the loss at `out`, the total weight 256
/// bytes after it.
fn launch_nll_loss_2d(
    d: &EmulatedDevice,
    out: DevicePtr,
    input: DevicePtr,
    target: DevicePtr,
) -> Result<(), DeviceError> {
    let args = KernelArgs::new()
        .arg(out)
        .arg(out.offset(256))
        .arg(input)
        .arg(target)
        .arg(DevicePtr::NULL)
        .arg(true)
        .arg(4i64)
        .arg(3i64)
        .arg(3i64)
        .arg(-100i64);
    let cfg = LaunchConfig::new(Dim3::x(1), Dim3::x(32));
    d.launch("nll_loss_forward_reduce_cuda_kernel_2d_f32_i64", cfg, &args)
}

#[test]
fn the_binary_holds_every_entry_kernels_rs_lists() {
    let built = emulated::entry_names();
    assert_eq!(built.len(), KERNEL_FILES.len());
    for (k, (file, names)) in KERNEL_FILES.iter().zip(&built) {
        assert_eq!(k.file, *file);
        let expected = k.entries();
        assert_eq!(names.len(), expected.len(), "{file}");
        for (a, b) in names.iter().zip(&expected) {
            assert_eq!(a, b, "{file}");
        }
    }
}

#[test]
fn nll_loss_2d_reduces_with_32_threads_and_a_barrier() {
    let d = device();
    // log-probabilities of 4 samples over 3 classes
    let input: Vec<f32> = (0..12).map(|i| -(i as f32) * 0.25).collect();
    let target: Vec<i64> = vec![0, 1, 2, 1];
    let (pi, pt) = (upload(&d, &input), upload(&d, &target));
    let out = d.mem_alloc(512).unwrap();
    let tw = out.offset(256);
    launch_nll_loss_2d(&d, out, pi, pt).unwrap();
    let loss = download::<f32>(&d, out, 1)[0];
    let expected = -(input[0] + input[4] + input[8] + input[10]) / 4.0;
    assert_eq!(loss, expected);
    assert_eq!(download::<f32>(&d, tw, 1)[0], 4.0);
    assert!(!d.poisoned());
    assert!(d.take_device_log().is_empty());
}

#[test]
fn a_device_side_assert_prints_the_driver_line_and_poisons_for_good() {
    let d = device();
    let input = vec![0.0f32; 12];
    let target: Vec<i64> = vec![0, 1, 3, 1]; // 3 classes: 3 is out of range
    let (pi, pt) = (upload(&d, &input), upload(&d, &target));
    let out = d.mem_alloc(512).unwrap();
    // Like cuLaunchKernel, the launch itself returns success; the context is now poisoned.
    launch_nll_loss_2d(&d, out, pi, pt).unwrap();
    assert!(d.poisoned());
    let log = d.take_device_log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(
        log[0].ends_with(
            ": nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [2,0,0] \
             Assertion `t >= 0 && t < n_classes` failed."
        ),
        "{}",
        log[0]
    );
    // Sticky: every later call fails the same way.
    assert_eq!(
        launch_nll_loss_2d(&d, out, pi, pt),
        Err(DeviceError::Assert)
    );
    assert_eq!(d.synchronize(), Err(DeviceError::Assert));
    let mut buf = [0u8; 4];
    assert_eq!(d.copy_d2h(&mut buf, out), Err(DeviceError::Assert));
}

#[test]
fn wrong_arguments_and_bad_configurations_are_refused_before_running() {
    let d = device();
    let out = d.mem_alloc(512).unwrap();
    // fill_f32(int64_t n, float value, float* out): a double where a float belongs
    let bad = KernelArgs::new().arg(4i64).arg(1.0f64).arg(out);
    let e = d
        .launch("fill_f32", LaunchConfig::new(Dim3::x(1), Dim3::x(4)), &bad)
        .unwrap_err();
    assert!(e.to_string().contains("[8, 8, 8]"), "{e}");
    let good = KernelArgs::new().arg(4i64).arg(1.5f32).arg(out);
    for (grid, block) in [(Dim3::x(0), Dim3::x(4)), (Dim3::x(1), Dim3::x(2048))] {
        let e = d
            .launch("fill_f32", LaunchConfig::new(grid, block), &good)
            .unwrap_err();
        assert!(matches!(e, DeviceError::Launch(_)), "{e}");
    }
    assert!(
        d.launch(
            "no_such_kernel",
            LaunchConfig::new(Dim3::x(1), Dim3::x(1)),
            &good
        )
        .is_err()
    );
    d.launch("fill_f32", LaunchConfig::new(Dim3::x(1), Dim3::x(4)), &good)
        .unwrap();
    assert_eq!(download::<f32>(&d, out, 4), vec![1.5; 4]);
    assert!(!d.poisoned());
}

#[test]
fn copies_outside_device_memory_are_refused() {
    let d = device();
    let p = d.mem_alloc(1024).unwrap();
    let mut buf = vec![0u8; 16];
    assert!(d.copy_d2h(&mut buf, p.offset(1020)).is_err());
    assert!(d.copy_d2h(&mut buf, DevicePtr(8)).is_err());
    assert!(d.copy_d2h(&mut buf, p.offset(1008)).is_ok());
}

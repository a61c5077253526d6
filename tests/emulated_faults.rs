//! Every sticky CUDA fault as PyTorch 2.15 reports it, without a GPU: the emulated device is
//! told to fault (an out-of-bounds write, a misaligned load, a trap) and the run must raise
//! `torch.AcceleratorError` with PyTorch's message (cudaGetErrorString of the wheel's CUDA
//! 13.2 runtime, the "Search for `cudaError...'" line, the two "asynchronously reported" lines
//! unless CUDA_LAUNCH_BLOCKING=1), on the line PyTorch raises it, sticky for every later call.

use cudatutor::engine::cuda::emulated::{self, EmulatedDevice, InjectedFault};
use cudatutor::engine::cuda::gpu::GpuDevice;
use cudatutor::engine::cuda::launch::{DeviceError, Dim3, KernelArgs, LaunchConfig};
use cudatutor::engine::error::CudaFault;

#[macro_use]
#[path = "support/hook_test.rs"]
mod hook_test;

const FAULTS: [(InjectedFault, &str, i32, &str, &str); 3] = [
    (
        InjectedFault::OutOfBoundsWrite,
        "oob-write",
        700,
        "an illegal memory access was encountered",
        "cudaErrorIllegalAddress",
    ),
    (
        InjectedFault::MisalignedLoad,
        "misaligned-load",
        716,
        "misaligned address",
        "cudaErrorMisalignedAddress",
    ),
    (
        InjectedFault::Trap,
        "trap",
        719,
        "unspecified launch failure",
        "cudaErrorLaunchFailure",
    ),
];

const HELP: &str = "in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.";
const ASYNC: &str = "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1";

fn pytorch_message(text: &str, name: &str, blocking: bool) -> String {
    let mut m = format!("CUDA error: {text}\nSearch for `{name}' {HELP}");
    if !blocking {
        m = format!("{m}\n{ASYNC}");
    }
    m
}

#[test]
fn each_fault_has_pytorchs_code_name_and_text() {
    for (injected, kind, code, text, name) in FAULTS {
        let fault = injected.fault();
        assert_eq!(InjectedFault::parse(kind), Some(injected));
        assert_eq!(fault.code(), code);
        assert_eq!(CudaFault::from_code(code), Some(fault));
        assert_eq!(fault.text(), text);
        assert_eq!(fault.name(), name);
        assert_eq!(fault.message(false), pytorch_message(text, name, false));
        assert_eq!(fault.message(true), pytorch_message(text, name, true));
    }
    // the assert's wording is the one the recorded fixtures hold
    assert_eq!(
        CudaFault::Assert.message(false),
        cudatutor::engine::error::CUDA_ASSERT_MESSAGE
    );
    assert_eq!(
        CudaFault::Assert.message(true),
        cudatutor::engine::error::CUDA_ASSERT_MESSAGE_BLOCKING
    );
}

#[test]
fn an_injected_fault_poisons_the_device_with_its_own_error() {
    assert!(emulated::built(), "{}", emulated::NOT_BUILT);
    for (injected, _, code, _, name) in FAULTS {
        let d = EmulatedDevice::new(1 << 30, 1 << 30).unwrap();
        d.inject_fault("fill_f32", injected);
        let out = d.mem_alloc(512).unwrap();
        let fill = |d: &EmulatedDevice| {
            d.launch(
                "fill_f32",
                LaunchConfig::new(Dim3::x(1), Dim3::x(1)),
                &KernelArgs::new().arg(1i64).arg(0f32).arg(out),
            )
        };
        // like cuLaunchKernel: the launch itself returns; the context is what failed
        assert_eq!(fill(&d), Ok(()));
        assert!(d.poisoned());
        assert_eq!(d.sticky_fault(), Some(injected.fault()));
        let sticky = Err(DeviceError::Sticky {
            code,
            name: name.to_string(),
        });
        assert_eq!(d.synchronize(), sticky);
        assert_eq!(fill(&d), sticky, "sticky for every later call");
        let mut host = [0u8; 4];
        assert_eq!(d.copy_d2h(&mut host, out), sticky);
        assert!(d.take_device_log().is_empty(), "no assert line for a fault");
    }
}

#[test]
fn a_fault_injected_elsewhere_leaves_other_kernels_running() {
    let d = EmulatedDevice::new(1 << 30, 1 << 30).unwrap();
    d.inject_fault("never_launched_entry", InjectedFault::Trap);
    let out = d.mem_alloc(512).unwrap();
    let r = d.launch(
        "fill_f32",
        LaunchConfig::new(Dim3::x(1), Dim3::x(1)),
        &KernelArgs::new().arg(1i64).arg(2.5f32).arg(out),
    );
    assert_eq!(r, Ok(()));
    assert!(!d.poisoned());
    assert_eq!(d.sticky_fault(), None);
}

// ---------------------------------------------------------------- through `cudatutor run`

#[cfg(feature = "fault-injection")]
fn run_with_fault(kind: &str, script: &str, blocking: bool) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("cudatutor-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("fault_{kind}_{blocking}.py"));
    std::fs::write(&path, script).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cudatutor"));
    cmd.args(["run", "--backend", "emulated", path.to_str().unwrap()])
        .env("CUDATUTOR_TEST_EMULATED_FAULT", format!("mul:{kind}"))
        .env("CUDATUTOR_DATA_DIR", dir.join("data"))
        .env_remove("CUDA_LAUNCH_BLOCKING");
    if blocking {
        cmd.env("CUDA_LAUNCH_BLOCKING", "1");
    }
    cmd.output().unwrap()
}

/// The script of the tests below: `x * 2` (line 3) is the kernel that faults.
#[cfg(feature = "fault-injection")]
const SCRIPT: &str = "import torch
x = torch.ones(4, device='cuda')
y = x * 2
try:
    torch.cuda.synchronize()
except RuntimeError as e:
    print(type(e).__name__, isinstance(e, torch.AcceleratorError))
    print(str(e).splitlines()[0])
z = torch.zeros(2, device='cuda')
print(z.sum().item())
";

/// SCRIPT run with fault `kind` injected (`text` and `name`: the fault's CUDA error) and
/// CUDA_LAUNCH_BLOCKING as `blocking` says: it must exit 1, its traceback ending in PyTorch's
/// whole AcceleratorError message raised at `line`. (stdout, stderr).
#[cfg(feature = "fault-injection")]
fn fault_ends_the_script(
    kind: &str,
    text: &str,
    name: &str,
    blocking: bool,
    line: u32,
) -> (String, String) {
    let out = run_with_fault(kind, SCRIPT, blocking);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{kind}: {stdout}{stderr}");
    let message = pytorch_message(text, name, blocking);
    assert!(
        stderr.ends_with(&format!("torch.AcceleratorError: {message}\n")),
        "{kind}: {stderr}"
    );
    assert!(
        stderr.contains(&format!("line {line}, in <module>")),
        "{kind}: {stderr}"
    );
    (stdout, stderr)
}

hook_test! {
    fn each_fault_raises_pytorchs_accelerator_error_at_the_next_sync_and_stays() {
        for (_, kind, _, text, name) in FAULTS {
            // sticky: the next CUDA call (line 9) raises the same error, PyTorch's whole text
            let (stdout, stderr) = fault_ends_the_script(kind, text, name, false, 9);
            // raised at the synchronize (line 5), caught as a RuntimeError subclass
            assert_eq!(
                stdout,
                format!("AcceleratorError True\nCUDA error: {text}\n"),
                "{stderr}"
            );
        }
    }
}

hook_test! {
    fn with_cuda_launch_blocking_each_fault_raises_on_its_own_line_without_the_async_advice() {
        for (_, kind, _, text, name) in FAULTS {
            let (stdout, stderr) = fault_ends_the_script(kind, text, name, true, 3);
            assert_eq!(stdout, "", "{stderr}");
        }
    }
}

// ---------------------------------------------------------------- allocation errors

#[test]
fn a_segment_refused_for_another_reason_than_memory_is_not_out_of_memory() {
    use cudatutor::engine::allocator::SegmentSource;
    use cudatutor::engine::cuda::gpu::DeviceSegments;
    use cudatutor::engine::error::ErrorKind;
    // 64 MiB of modelled memory, of which the host keeps the values of at most 4 MiB
    let device = std::rc::Rc::new(EmulatedDevice::new(64 << 20, 4 << 20).unwrap());
    let mut segments = DeviceSegments::new(device, None);
    // past the capacity: out of memory (PyTorch's OOM path), nothing else to say
    assert_eq!(segments.malloc(128 << 20), None);
    assert_eq!(segments.take_failure(), None);
    // within the capacity but past what the host keeps: the device's own reason
    assert_eq!(segments.malloc(8 << 20), None);
    let e = segments.take_failure().expect("a reason");
    assert_eq!(e.kind, ErrorKind::RuntimeError);
    assert!(
        e.message
            .starts_with("the emulated device keeps tensor values in host memory"),
        "{}",
        e.message
    );
    assert_eq!(segments.take_failure(), None, "taken once");
    // and what fits is given
    assert!(segments.malloc(2 << 20).is_some());
}

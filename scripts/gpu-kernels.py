#!/usr/bin/env python3
"""Our kernels on a real GPU without the Rust launcher (scripts/gpu-check.sh, part A).

Needs python3 with torch+CUDA (its NVRTC wheel and the driver); no network, no Rust.
  1. compiles every kernels/*.cu with the NVRTC torch ships, to PTX and to CUBIN for the
     device's own architecture, and loads each with cuModuleLoadData: which one the driver takes
     (NVRTC newer than the driver writes PTX the driver rejects; CUBIN should load);
  2. launches nll_loss 2d with an out-of-range class in a child process: the error code (710
     expected) and the driver's assert line as printed to stderr;
  3. the benchmark: our add_f32 on 256 MiB tensors vs a device-to-device copy (bandwidth ratio,
     goal 80%).
Writes a JSON summary to argv[1] (default gpu-kernels.json) and prints it.
"""
import ctypes
import glob
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNELS = ROOT / "kernels"
# Every kernel file but the header the others include (a list by hand once left out scan.cu).
FILES = sorted(p.name for p in KERNELS.glob("*.cu") if p.name != "common.cu")


def full_source(name):
    # The same text src/engine/cuda/kernels.rs hands NVRTC.
    common = (KERNELS / "common.cu").read_text()
    return f'{common}\n#line 1 "{name}"\n{(KERNELS / name).read_text()}'


def load_nvrtc():
    import torch  # noqa: F401
    base = pathlib.Path(torch.__file__).parent.parent / "nvidia"
    for lib in sorted(glob.glob(str(base / "*" / "lib" / "libnvrtc.so.*")), reverse=True):
        if "builtins" in lib:
            continue
        # PyTorch's NVRTC wheel may lack the $ORIGIN rpath: load the builtins first, globally.
        for b in sorted(glob.glob(os.path.join(os.path.dirname(lib), "libnvrtc-builtins.so.*")), reverse=True):
            try:
                ctypes.CDLL(b, mode=ctypes.RTLD_GLOBAL)
                break
            except OSError:
                pass
        return ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL), lib
    return ctypes.CDLL("libnvrtc.so", mode=ctypes.RTLD_GLOBAL), "libnvrtc.so"


def nvrtc_compile(nv, name, src, arch, cubin):
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), name.encode(), 0, None, None) == 0
    opts = [f"--gpu-architecture={arch}".encode(), b"--std=c++17", b"--fmad=false"]  # as nvrtc.rs
    arr = (ctypes.c_char_p * len(opts))(*opts)
    t0 = time.time()
    rc = nv.nvrtcCompileProgram(prog, len(opts), arr)
    ms = (time.time() - t0) * 1000
    if rc != 0:
        size = ctypes.c_size_t()
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetProgramLog(prog, log)
        nv.nvrtcDestroyProgram(ctypes.byref(prog))
        return None, ms, log.value.decode(errors="replace")
    size = ctypes.c_size_t()
    getsize = nv.nvrtcGetCUBINSize if cubin else nv.nvrtcGetPTXSize
    get = nv.nvrtcGetCUBIN if cubin else nv.nvrtcGetPTX
    getsize(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    get(prog, buf)
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    return buf.raw, ms, None


def cuda():
    import torch
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # make the primary context current
    return ctypes.CDLL("libcuda.so.1")


def err_name(cu, rc):
    s = ctypes.c_char_p()
    cu.cuGetErrorName(rc, ctypes.byref(s))
    return (s.value or b"?").decode()


class CtShape(ctypes.Structure):
    _fields_ = [("ndim", ctypes.c_int32), ("sizes", ctypes.c_int64 * 8)]


class CtStrides(ctypes.Structure):
    _fields_ = [("s", ctypes.c_int64 * 8)]


def launch(cu, fn, grid, block, args):
    ptrs = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
    return cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, None, ptrs, None)


def assert_child(cubin_path):
    """Runs in a child process: the bad nll_loss launch; prints JSON with the codes."""
    import torch
    cu = cuda()
    mod = ctypes.c_void_p()
    data = pathlib.Path(cubin_path).read_bytes()
    rc = cu.cuModuleLoadData(ctypes.byref(mod), data)
    fn = ctypes.c_void_p()
    cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"nll_loss_forward_reduce_cuda_kernel_2d_f32_i64")
    inp = torch.zeros(4, 3, device="cuda")
    tgt = torch.tensor([0, 3, 1, 2], device="cuda")
    out = torch.zeros(2, device="cuda")
    args = [ctypes.c_uint64(out.data_ptr()), ctypes.c_uint64(out.data_ptr() + 4),
            ctypes.c_uint64(inp.data_ptr()), ctypes.c_uint64(tgt.data_ptr()), ctypes.c_uint64(0),
            ctypes.c_bool(True), ctypes.c_int64(4), ctypes.c_int64(3), ctypes.c_int64(3),
            ctypes.c_int64(-100)]
    launch_rc = launch(cu, fn, 1, 32, args)
    sync_rc = cu.cuCtxSynchronize()
    again_rc = launch(cu, fn, 1, 32, args)
    print(json.dumps({"load": rc, "launch": launch_rc, "synchronize": sync_rc,
                      "synchronize_name": err_name(cu, sync_rc), "launch_after": again_rc}))
    sys.stdout.flush()


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--assert-child":
        assert_child(sys.argv[2])
        return 0
    out_path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "gpu-kernels.json")
    import torch
    summary = {"torch": torch.__version__, "torch_cuda": torch.version.cuda}
    nv, nv_path = load_nvrtc()
    major, minor = ctypes.c_int(), ctypes.c_int()
    nv.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    summary["nvrtc"] = f"{major.value}.{minor.value} ({nv_path})"
    cu = cuda()
    drv = ctypes.c_int()
    cu.cuDriverGetVersion(ctypes.byref(drv))
    summary["driver_cuda"] = f"{drv.value // 1000}.{(drv.value % 1000) // 10}"
    cap = torch.cuda.get_device_capability(0)
    arch = f"sm_{cap[0]}{cap[1]}"
    summary["device"] = torch.cuda.get_device_name(0)
    summary["arch"] = arch
    modules, loads = {}, []
    workdir = out_path.parent
    for name in FILES:
        src = full_source(name)
        # PTX for two files only (whether the driver takes this NVRTC's PTX; a PTX compile of
        # elementwise.cu takes 23 s on an H200 machine, a CUBIN 0.1 s), CUBIN for every file.
        for kind in (("ptx", "cubin") if name in ("fill.cu", "loss.cu") else ("cubin",)):
            image, ms, log = nvrtc_compile(nv, name, src, arch, kind == "cubin")
            row = {"file": name, "kind": kind, "compile_ms": round(ms), "compile_error": log}
            if image is not None:
                mod = ctypes.c_void_p()
                data = image if kind == "cubin" else image.rstrip(b"\0") + b"\0"
                rc = cu.cuModuleLoadData(ctypes.byref(mod), data)
                row["load"] = err_name(cu, rc)
                if rc == 0 and kind == "cubin":
                    modules[name] = mod
                    (workdir / f"{name}.{arch}.cubin").write_bytes(image)
                    # the assert child loads loss.cu's CUBIN from this file
            loads.append(row)
            print(f"{name:16} {kind:5} compile {ms:7.0f} ms  load {row.get('load', log)}")
    summary["loads"] = loads

    if "loss.cu" in modules:
        p = subprocess.run([sys.executable, __file__, "--assert-child", str(workdir / f"loss.cu.{arch}.cubin")],
                           capture_output=True, text=True, timeout=120)
        summary["assert"] = {"stdout": p.stdout, "stderr": p.stderr, "exit": p.returncode}
        print("assert child:", p.stdout.strip(), "| stderr:", p.stderr.strip()[:300])

    if "elementwise.cu" in modules:
        fn = ctypes.c_void_p()
        cu.cuModuleGetFunction(ctypes.byref(fn), modules["elementwise.cu"], b"add_f32")
        n = 64 * 1024 * 1024  # 256 MiB of float32 per tensor
        a = torch.rand(n, device="cuda")
        b = torch.rand(n, device="cuda")
        c = torch.empty(n, device="cuda")
        shape = CtShape(1, (ctypes.c_int64 * 8)(n, 1, 1, 1, 1, 1, 1, 1))
        st = CtStrides((ctypes.c_int64 * 8)(1, 0, 0, 0, 0, 0, 0, 0))
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        grid = min((n + 127) // 128, sms * 32)
        args = [ctypes.c_int64(n), shape, st, st, st, ctypes.c_uint64(a.data_ptr()),
                ctypes.c_uint64(b.data_ptr()), ctypes.c_uint64(c.data_ptr())]
        assert launch(cu, fn, grid, 128, args) == 0
        torch.cuda.synchronize()
        ok = bool(torch.equal(c, a + b))
        reps = 20
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            launch(cu, fn, grid, 128, args)
        end.record()
        torch.cuda.synchronize()
        add_ms = start.elapsed_time(end) / reps
        start.record()
        for _ in range(reps):
            c.copy_(a)
        end.record()
        torch.cuda.synchronize()
        copy_ms = start.elapsed_time(end) / reps
        add_gbs = 3 * n * 4 / add_ms / 1e6
        copy_gbs = 2 * n * 4 / copy_ms / 1e6
        summary["benchmark"] = {"add_f32_matches_torch": ok, "add_ms": add_ms, "copy_ms": copy_ms,
                                "add_GBps": add_gbs, "copy_GBps": copy_gbs,
                                "ratio": add_gbs / copy_gbs, "goal": 0.8}
        print(f"add_f32 256 MiB: {add_ms:.3f} ms = {add_gbs:.0f} GB/s; d2d copy {copy_gbs:.0f} GB/s; "
              f"ratio {add_gbs / copy_gbs:.2f} (goal 0.80); equal to torch: {ok}")
    out_path.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

print("about to fail")
raise RuntimeError("CUDA error: device-side assert triggered")

"""cudatutor: an interactive terminal tutorial on CUDA errors, devices and memory in PyTorch.

The tutorial itself is a binary installed beside this package (`cudatutor` on PATH);
`python -m cudatutor` runs it with this interpreter as its default Python.
"""

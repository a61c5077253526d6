//! Tensor, dtype, device, ops and PyTorch-exact printing.

//! PyTorch caching-allocator rules, shared by the sim and cuda backends.

//! torch

//! cudatutor: an interactive terminal tutorial on CUDA errors, devices and memory in PyTorch.
//!
//! Data flows one way: lesson file -> [`lesson::Lesson`] -> script source -> [`script`] AST ->
//! evaluator -> [`torch`] bindings -> [`engine`] -> backend; [`run`] turns one script into a
//! report which [`ui`] and the JSON output render.

pub(crate) mod binding;
pub mod budget;
pub mod classroom;
pub mod commands;
pub mod engine;
pub mod explain;
#[cfg(feature = "fault-injection")]
pub mod fault_injection;
pub mod lesson;
pub(crate) mod numpy;
pub mod progress;
pub(crate) mod regular_file;
pub mod run;
pub mod run_report;
pub mod script;
pub mod torch;
pub mod ui;
pub(crate) mod units;

// The unit tests run the interpreter in their own process: they count its heap as the binary
// does (src/main.rs declares the allocator for the product).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: budget::CountingAlloc = budget::CountingAlloc;

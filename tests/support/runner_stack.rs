//! Running the interpreter on a thread with the runner's stack, as a learner's script runs.
#![allow(dead_code)]

/// The stack of the thread that runs a learner's script (the interpreter recurses).
pub(crate) const RUNNER_STACK: usize = 8 << 20;

/// `f`'s result, run on a thread with the runner's stack; a panic in it (a stack overflow
/// aborts the process) fails the test.
pub(crate) fn on_runner_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(RUNNER_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("interpreter thread panicked")
}

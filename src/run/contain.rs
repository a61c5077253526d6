//! A panic inside a run stays inside the run. [`contain`] runs a closure with the panic caught
//! and, on this thread only, the panic hook silenced: nothing is printed (no message, no
//! backtrace over the pager), no other hook runs (the pager's, which would put the terminal
//! back in cooked mode while the pager goes on), and the message with its source location
//! comes back as the `Err`, for a report that says "internal error". A panic anywhere else
//! still reaches the hooks installed before (the pager restores the terminal, then Rust
//! prints the message).

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::sync::Once;

thread_local! {
    /// True while this thread is inside [`contain`].
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
    /// The message of the panic caught on this thread, set by the hook.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs the silencing hook once, in front of whatever hook is there now.
pub(crate) fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !record(info) {
                previous(info);
            }
        }));
    });
}

/// Called first by every panic hook of cudatutor: when the panic happens inside [`contain`]
/// on this thread, keeps its message and returns true (the hook then does nothing else).
/// Never panics itself (a panic inside a hook aborts the process).
pub fn record(info: &PanicHookInfo) -> bool {
    if !CONTAINED.try_with(Cell::get).unwrap_or(false) {
        return false;
    }
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    let text = match info.location() {
        Some(at) => format!("{message}, at {}:{}", at.file(), at.line()),
        None => message,
    };
    let _ = CAUGHT.try_with(|c| {
        if let Ok(mut slot) = c.try_borrow_mut() {
            *slot = Some(text);
        }
    });
    true
}

/// Runs `f` with its panics caught and kept quiet. `Err` is the panic's message and location.
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = CONTAINED.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(was));
    result.map_err(|payload| {
        CAUGHT
            .with(|c| c.borrow_mut().take())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}

/// The one-line message a learner sees for a run that panicked inside cudatutor.
pub(crate) fn panic_message(detail: &str) -> String {
    format!(
        "internal error in cudatutor: {detail}. This is a bug in cudatutor, not in your code; \
         the run was stopped and nothing else is affected. Please report the code that caused it"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_panic_is_an_err_with_its_location_and_the_thread_goes_on() {
        let r: Result<(), String> = contain(|| {
            let v: Vec<u8> = Vec::new();
            let i = v.len() + 3;
            let _ = v[i];
        });
        let e = r.unwrap_err();
        assert!(e.contains("index out of bounds"), "{e}");
        assert!(e.contains("src/run/contain.rs:"), "{e}");
        assert_eq!(contain(|| 7).unwrap(), 7);
        assert!(!CONTAINED.with(Cell::get), "the flag is put back");
    }

    #[test]
    fn nested_contains_keep_the_outer_one() {
        let outer = contain(|| {
            let inner: Result<(), String> = contain(|| panic!("inner"));
            assert!(inner.unwrap_err().starts_with("inner"));
            assert!(CONTAINED.with(Cell::get), "still inside the outer one");
            panic!("outer")
        });
        assert!(outer.unwrap_err().starts_with("outer"));
    }
}

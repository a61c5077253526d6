//! Tests that drive the binary's or the library's test hooks, which exist only in a build with
//! `--features fault-injection` (scripts/test.sh): one place says how such a test is skipped.

/// A `#[test]` whose body needs the test hooks. In a build without them the test is ignored,
/// with the command that runs it, and its body is not compiled (the hooks' helpers are not
/// there); forced to run anyway (`--ignored`), it fails saying what it needs rather than
/// passing without having tested anything.
macro_rules! hook_test {
    ($(#[doc = $doc:literal])* fn $name:ident() $body:block) => {
        $(#[doc = $doc])*
        #[test]
        #[cfg_attr(
            not(feature = "fault-injection"),
            ignore = "needs the binary's test hooks: cargo test --features fault-injection (scripts/test.sh)"
        )]
        fn $name() {
            #[cfg(feature = "fault-injection")]
            $body
            #[cfg(not(feature = "fault-injection"))]
            panic!("needs the test hooks: cargo test --features fault-injection");
        }
    };
}

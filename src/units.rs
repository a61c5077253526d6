//! Quantities as cudatutor writes them for people, in one place: the interpreter's limit
//! message, the engine's interrupt and the pager's run-limit notes name the same seconds the
//! same way.

use std::time::Duration;

/// A duration in seconds as a limit is written: `10` when whole, else one decimal (`2.5`).
pub(crate) fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_secs;
    use std::time::Duration;

    #[test]
    fn whole_seconds_have_no_decimals_and_others_one() {
        assert_eq!(fmt_secs(Duration::from_secs(10)), "10");
        assert_eq!(fmt_secs(Duration::from_millis(2500)), "2.5");
        assert_eq!(fmt_secs(Duration::from_millis(250)), "0.2");
        assert_eq!(fmt_secs(Duration::ZERO), "0");
    }
}

//! A child process under an address-space limit (RLIMIT_AS), for the tests that check a script's
//! huge allocations raise instead of aborting: the limit is set in the child between fork and
//! exec, so the test process itself keeps its own.

use std::os::unix::process::CommandExt;
use std::process::Command;

/// The address-space limit the adversarial pass used (4 GiB).
pub(crate) const ADDRESS_SPACE: u64 = 4 << 30;

/// Makes `cmd`'s child start with RLIMIT_AS at `bytes` (soft and hard).
pub(crate) fn limit_address_space(cmd: &mut Command, bytes: u64) {
    // SAFETY: the closure runs in the child between fork and exec; setrlimit is
    // async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

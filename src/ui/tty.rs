//! Notices when the terminal goes away (its window closed, `tmux kill-session`, an SSH link
//! dropped) so the pager leaves instead of running on with nobody to see it.
//!
//! A hung-up terminal does not always send SIGHUP to the pager (the session leader may be a
//! shell that dies first), and crossterm's input reader never reports the hang-up: its read
//! returns end-of-file at once, forever. The pager asks the kernel directly, on the same
//! terminal crossterm reads (standard input when it is a terminal, otherwise `/dev/tty`).

#[cfg(unix)]
pub(super) use unix::TtyWatch;

/// Windows closes a console's processes with it, so there is nothing to watch: the pager
/// never sees a hung-up terminal there.
#[cfg(not(unix))]
pub(crate) struct TtyWatch;

#[cfg(not(unix))]
impl TtyWatch {
    pub fn open() -> Option<TtyWatch> {
        None
    }

    pub(crate) fn hung_up(&self) -> bool {
        false
    }
}

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::os::fd::{AsRawFd, RawFd};

    /// The terminal the pager reads keys from.
    pub(crate) struct TtyWatch {
        fd: RawFd,
        // Keeps /dev/tty open when it, not standard input, is the terminal.
        _opened: Option<File>,
    }

    impl TtyWatch {
        /// The terminal crossterm reads from, or None when there is none to watch (then the pager
        /// relies on the signals alone).
        pub(crate) fn open() -> Option<TtyWatch> {
            // SAFETY: isatty only inspects the descriptor.
            if unsafe { libc::isatty(libc::STDIN_FILENO) } == 1 {
                return Some(TtyWatch {
                    fd: libc::STDIN_FILENO,
                    _opened: None,
                });
            }
            let file = File::options()
                .read(true)
                .write(true)
                .open("/dev/tty")
                .ok()?;
            Some(TtyWatch {
                fd: file.as_raw_fd(),
                _opened: Some(file),
            })
        }

        /// True once the terminal has hung up or its descriptor is no longer valid. It never
        /// waits: a terminal that is merely quiet is not hung up.
        pub(crate) fn hung_up(&self) -> bool {
            let mut fds = [libc::pollfd {
                fd: self.fd,
                events: libc::POLLIN,
                revents: 0,
            }];
            // SAFETY: one valid pollfd, zero timeout.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 1, 0) };
            // macOS's poll(2) "does not support devices": it reports POLLNVAL for every terminal,
            // live or not, so there only POLLHUP and POLLERR mean gone (else the pager would quit
            // at once); a hang-up it cannot see still arrives as SIGHUP.
            let gone = if cfg!(target_os = "macos") {
                libc::POLLHUP | libc::POLLERR
            } else {
                libc::POLLHUP | libc::POLLERR | libc::POLLNVAL
            };
            ready > 0 && fds[0].revents & gone != 0
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use std::os::fd::FromRawFd;

        /// A pipe stands in for the terminal: its read end reports POLLHUP once the write end
        /// closes, as a tty does after its hang-up.
        #[test]
        fn a_closed_peer_reads_as_hung_up_and_an_open_one_does_not() {
            let mut ends = [0 as RawFd; 2];
            // SAFETY: a two-element array for pipe's two descriptors.
            assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
            // SAFETY: both descriptors were just created and are owned here.
            let (read_end, write_end) =
                unsafe { (File::from_raw_fd(ends[0]), File::from_raw_fd(ends[1])) };
            let watch = TtyWatch {
                fd: read_end.as_raw_fd(),
                _opened: Some(read_end),
            };
            assert!(!watch.hung_up(), "a quiet, open peer is not a hang-up");
            drop(write_end);
            assert!(watch.hung_up(), "the peer closed");
        }
    }
}

//! Signals never leave the terminal in the pager's state.
//!
//! - Every signal whose default action ends the process and that can be caught (SIGTERM,
//!   SIGINT, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
//!   SIGPWR, SIGSTKFLT) ends the pager the way `q` does: the event loop sees the flag within
//!   one poll interval, saves the learner's place and restores the terminal. (In raw mode
//!   Ctrl-C is a key press, not SIGINT; these come from `kill`, a closing terminal or a lab's
//!   session manager.)
//! - SIGTSTP (`kill -TSTP`, a job-control stop) puts the terminal back, stops, and takes the
//!   terminal again on SIGCONT.
//! - The signals that end the process at once (SIGABRT from an allocation failure, SIGSEGV,
//!   SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS) get a handler that only does what is safe in a
//!   signal handler: writes the escape sequences that leave the alternate screen, mouse
//!   capture and bracketed paste, and puts back the terminal modes saved before raw mode
//!   (tcsetattr). Then the signal does what it did before: a fault goes on to the previous
//!   handler (Rust's stack-overflow report), anything else ends the process with its default
//!   action (and status).
//!   SIGKILL and SIGSTOP cannot be caught by any program.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when one of the terminating signals arrived.
#[derive(Clone)]
pub(crate) struct Termination {
    quit: Arc<AtomicBool>,
    suspend: Arc<AtomicBool>,
}

/// The catchable signals whose default action ends the process (SIGPWR and SIGSTKFLT exist on
/// Linux only: macOS has neither).
const TERMINATING: &[libc::c_int] = &[
    libc::SIGTERM,
    libc::SIGINT,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGIO,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGPWR,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGSTKFLT,
];

/// The signals that end the process without going back to the event loop.
const FATAL: [libc::c_int; 7] = [
    libc::SIGABRT,
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGTRAP,
    libc::SIGSYS,
];

impl Termination {
    /// Registers the handlers. Failure to register (very unusual) only loses this nicety.
    pub(crate) fn install() -> Termination {
        let quit = Arc::new(AtomicBool::new(false));
        let suspend = Arc::new(AtomicBool::new(false));
        for &sig in TERMINATING {
            let _ = signal_hook::flag::register(sig, quit.clone());
        }
        let _ = signal_hook::flag::register(libc::SIGTSTP, suspend.clone());
        Termination { quit, suspend }
    }

    pub(crate) fn requested(&self) -> bool {
        self.quit.load(Ordering::SeqCst)
    }

    /// A stop was asked for (SIGTSTP); clears the request.
    pub(crate) fn take_suspend(&self) -> bool {
        self.suspend.swap(false, Ordering::SeqCst)
    }
}

/// Stops this process as SIGTSTP would have (the caller has restored the terminal); returns
/// once it is continued.
pub(crate) fn stop_self() {
    // SAFETY: raise only sends a signal to this thread's process.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}

/// The terminal's descriptor and its modes before raw mode, for the fatal-signal handler.
struct Saved {
    fd: libc::c_int,
    termios: libc::termios,
}

static SAVED: OnceLock<Saved> = OnceLock::new();
/// The actions of the fatal signals before ours, indexed by signal number.
static PREVIOUS: OnceLock<Vec<(libc::c_int, libc::sigaction)>> = OnceLock::new();

/// What `restore_terminal` writes, as bytes a signal handler can write: bracketed paste off,
/// every mouse mode crossterm turns on off, the main screen back, the cursor shown.
const LEAVE: &[u8] =
    b"\x1b[?2004l\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1049l\x1b[?25h";

/// Saves the terminal's modes (call before raw mode) and installs the fatal-signal handlers.
/// The terminal is the one crossterm puts in raw mode: standard input when it is a terminal,
/// otherwise /dev/tty.
pub(crate) fn install_fatal_handlers() {
    if SAVED.get().is_none() {
        // SAFETY: isatty and open/tcgetattr on descriptors owned here; the /dev/tty descriptor
        // is kept open for the life of the process on purpose.
        unsafe {
            let fd = if libc::isatty(libc::STDIN_FILENO) == 1 {
                libc::STDIN_FILENO
            } else {
                libc::open(c"/dev/tty".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC)
            };
            let mut termios: libc::termios = std::mem::zeroed();
            if fd >= 0 && libc::tcgetattr(fd, &mut termios) == 0 {
                let _ = SAVED.set(Saved { fd, termios });
            }
        }
    }
    PREVIOUS.get_or_init(|| {
        let mut previous = Vec::new();
        for sig in FATAL {
            // SAFETY: a zeroed sigaction filled in before use; the handler only calls
            // async-signal-safe functions (write, tcsetattr, sigaction, raise).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fatal as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut old) == 0 {
                    previous.push((sig, old));
                }
            }
        }
        previous
    });
}

/// Puts the terminal back from inside a signal handler: only write and tcsetattr. Does
/// nothing when the pager does not hold the terminal (or already gave it back).
fn restore_in_handler() {
    if !crate::ui::TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    // SAFETY: write and tcsetattr are async-signal-safe; SAVED is only read.
    unsafe {
        libc::write(libc::STDOUT_FILENO, LEAVE.as_ptr().cast(), LEAVE.len());
        if let Some(saved) = SAVED.get() {
            libc::tcsetattr(saved.fd, libc::TCSANOW, &saved.termios);
        }
    }
}

extern "C" fn on_fatal(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    restore_in_handler();
    // SAFETY: sigaction and raise are async-signal-safe; `info` is the kernel's.
    unsafe {
        let previous = PREVIOUS
            .get()
            .and_then(|p| p.iter().find(|(s, _)| *s == sig).map(|(_, a)| *a));
        // Sent by the kernel for a fault (si_code > 0): returning re-runs the faulting
        // instruction under the previous action (Rust's handler reports a stack overflow).
        let fault = !info.is_null() && (*info).si_code > 0;
        let handled_before = previous.is_some_and(|a| a.sa_sigaction > libc::SIG_IGN);
        if let Some(previous) = previous.filter(|_| fault && handled_before) {
            libc::sigaction(sig, &previous, std::ptr::null_mut());
            return;
        }
        // Anything else (abort(), kill): the default action, which ends the process.
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &default, std::ptr::null_mut());
        libc::raise(sig);
    }
}

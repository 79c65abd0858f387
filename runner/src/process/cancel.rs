//! A run cancelled by a signal (SIGTERM, SIGINT or SIGHUP, as a CI cancel,
//! an IDE, a supervisor or a closed terminal sends it): the handler only
//! records the signal; the runner then stops starting files, kills the
//! children it waits for, writes no golden, and ends by the same signal
//! ([`finish`]), so that whoever sent it sees it took effect.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that cancelled the run; 0 while none did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The signals that cancel a run.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

#[cfg(unix)]
extern "C" fn record(signal: libc::c_int) {
    // The first signal is the cause; an atomic store is async-signal-safe.
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
}

/// Records the cancelling signals from now on, instead of dying of them
/// at once (the binary's parent process only: a test or a child keeps the
/// default). A signal this process was started ignoring (SIGINT for a job
/// a shell put in the background, SIGHUP under `nohup`) stays ignored.
pub fn install() {
    #[cfg(unix)]
    for signal in SIGNALS {
        // SAFETY: `record` only stores into an atomic; the old action is
        // read into a zeroed struct.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old);
            if old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = record as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that cancelled the run, if one did.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Whether the run goes on (no cancelling signal came).
pub fn live() -> bool {
    requested().is_none()
}

/// The name of a cancelling signal.
pub fn name(signal: i32) -> String {
    #[cfg(unix)]
    {
        match signal {
            libc::SIGTERM => return "SIGTERM".into(),
            libc::SIGINT => return "SIGINT".into(),
            libc::SIGHUP => return "SIGHUP".into(),
            _ => {}
        }
    }
    format!("signal {signal}")
}

/// Ends this process by `signal`, with its default action, as if the
/// handler had never been installed (exit status 128 + signal where that
/// cannot be done).
pub fn finish(signal: i32) -> ! {
    #[cfg(unix)]
    // SAFETY: restoring the default action and raising the signal.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
    std::process::exit(128 + signal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        #[cfg(unix)]
        assert_eq!(name(libc::SIGTERM), "SIGTERM");
        assert_eq!(name(99), "signal 99");
        assert!(live());
    }
}

//! This process's CPU time so far, every thread's: the work done, which
//! wall time hides when threads run side by side or wait on each other.
// Each bench includes this file and uses only what it prints.
#![allow(dead_code)]

use std::time::Duration;

/// User and system time together, to the nanosecond
/// (`CLOCK_PROCESS_CPUTIME_ID`).
pub fn total() -> Duration {
    let mut spec = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `spec` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut spec) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    Duration::new(spec.tv_sec as u64, spec.tv_nsec as u32)
}

/// User and system time apart (`getrusage`).
pub fn user_system() -> (Duration, Duration) {
    // SAFETY: an all-zero rusage is a valid value for the call to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for the call to write.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    assert_eq!(rc, 0, "getrusage(RUSAGE_SELF)");
    let duration = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (duration(usage.ru_utime), duration(usage.ru_stime))
}

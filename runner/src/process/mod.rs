//! The runner's processes: who a process is, whether it still lives, a
//! child that dies with its parent, and a cancel by signal.
//!
//! Nothing the runner starts may outlive it ([isolation](../../../docs/runner.md#isolation-jobs-and-partitions)):
//! each child is started with [`die_with_parent`], and a signal that
//! cancels the run is recorded by [`cancel`] and checked before a golden is
//! renamed into place. A process is named by its pid and its start time
//! ([`Identity`]), since a pid alone is reused once its process is gone:
//! a rewrite's temporary file carries its writer's identity, and only the
//! files of a writer that is gone are swept. On Linux all of this reads
//! `/proc` and calls `prctl`; elsewhere a child still watches its parent
//! itself (see `isolate::child`).

pub mod cancel;

use std::fmt;
use std::process::Command;

/// A process as its pid and its start time (clock ticks after boot, field
/// 22 of `/proc/PID/stat`): a later process with the same pid has another
/// start time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    pub pid: u32,
    /// `None` where the system does not say (no `/proc`).
    pub start: Option<u64>,
}

impl Identity {
    /// This process.
    pub fn current() -> Identity {
        let pid = std::process::id();
        Identity {
            pid,
            start: start_time(pid),
        }
    }

    /// Parses [`Identity`]'s display form, `PID` or `PID-START`.
    pub fn parse(text: &str) -> Option<Identity> {
        let number = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u64>().ok())
                .flatten()
        };
        let (pid, start) = match text.split_once('-') {
            Some((pid, start)) => (pid, Some(number(start)?)),
            None => (text, None),
        };
        Some(Identity {
            pid: u32::try_from(number(pid)?).ok()?,
            start,
        })
    }

    /// Whether this process still runs: its pid is taken by a process that
    /// has not exited, with the same start time if it is known. Where the
    /// system cannot say, it is assumed alive, so nothing of it is swept.
    pub fn is_alive(&self) -> bool {
        match stat(self.pid) {
            Some(stat) => stat.state != 'Z' && self.start.is_none_or(|s| s == stat.start),
            None if std::path::Path::new("/proc/self/stat").exists() => false,
            None => signal_zero(self.pid),
        }
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.start {
            Some(start) => write!(f, "{}-{start}", self.pid),
            None => write!(f, "{}", self.pid),
        }
    }
}

/// What `/proc/PID/stat` says of a process.
struct Stat {
    /// `R`, `S`, `D`, `T`, `Z` (exited, not yet reaped), ...
    state: char,
    start: u64,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses,
    // so the fields are counted from the last `)`.
    let (_, rest) = text.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        state: fields.first()?.chars().next()?,
        // Field 22 of the whole line is the 20th after the command.
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The start time of process `pid`, if `/proc` says.
pub fn start_time(pid: u32) -> Option<u64> {
    stat(pid).map(|s| s.start)
}

#[cfg(unix)]
fn signal_zero(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn signal_zero(_pid: u32) -> bool {
    true
}

/// The parent of this process, as the system says now (on Unix; `None`
/// elsewhere). A child whose parent died has been handed to another
/// process, so this changes.
pub fn parent_pid() -> Option<u32> {
    #[cfg(unix)]
    {
        // SAFETY: getppid cannot fail.
        u32::try_from(unsafe { libc::getppid() }).ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Makes the child `command` starts die with this process, whatever ends
/// it (SIGKILL included): on Linux the child asks the kernel, right after
/// the fork, for SIGKILL when its parent dies (`PR_SET_PDEATHSIG`), then
/// checks that its parent is still this process, since the parent may
/// have died before it asked. (The kernel sends the signal when the
/// thread that forked ends: start a child on the thread that waits for it.)
pub fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id();
        // SAFETY: prctl and getppid are async-signal-safe, and the closure
        // allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    return Err(std::io::Error::other("the parent is gone"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// The processes that have `key=value` in their environment and have not
/// exited, as their pids: how the lifetime tests find whatever a run left
/// behind (a run's processes inherit a mark set on the first of them).
pub fn living_with_env(key: &str, value: &str) -> Vec<u32> {
    let mark = format!("{key}={value}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found: Vec<u32> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let marked = environ.split(|&b| b == 0).any(|v| v == mark.as_bytes());
            marked && stat(pid).is_some_and(|s| s.state != 'Z')
        })
        .collect();
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_print_and_parse() {
        let me = Identity::current();
        assert_eq!(Identity::parse(&me.to_string()), Some(me));
        assert!(me.is_alive());
        assert_eq!(
            Identity::parse("42"),
            Some(Identity {
                pid: 42,
                start: None
            })
        );
        for bad in ["", "-", "4a", "1-", "-3", "1-2-3", "99999999999"] {
            assert_eq!(Identity::parse(bad), None, "{bad}");
        }
    }

    /// A pid taken by another process than the one named (pid reuse) is
    /// not the named process, and an exited process is gone.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_reused_pid_or_an_exited_process_is_not_alive() {
        let me = Identity::current();
        let start = me.start.expect("Linux has /proc");
        let reused = Identity {
            start: Some(start + 1),
            ..me
        };
        assert!(!reused.is_alive());
        let mut child = Command::new("true").spawn().unwrap();
        let gone = Identity {
            pid: child.id(),
            start: start_time(child.id()),
        };
        child.wait().unwrap();
        assert!(!gone.is_alive());
    }
}

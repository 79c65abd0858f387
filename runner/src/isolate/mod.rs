//! Checking each file in a child process of the runner, as trusted test
//! runners do (nextest runs each test in its own process): an abort, a
//! stack overflow, an out-of-memory kill or a time-out then fails that file
//! alone, with its name, how the child ended and the tail of its stderr,
//! and the rest of the suite, the summary, JSON and JUnit still come out.
//!
//! The child is the runner binary itself, started with [`child::FLAG`], the
//! parent's pid and the one file to check before the parent's own
//! arguments; it prints that file's [`FileReport`] as JSON on stdout and
//! writes nothing else: a golden it would rewrite comes back in the report,
//! and only the parent, alive and not cancelled, writes it. A child dies
//! with its parent ([`process::die_with_parent`]) and ends itself past its
//! time-out ([`child::watch`]); the parent also kills it a little later.

pub mod child;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::check::site::{Kind, Site};
use crate::check::verdict;
use crate::check::{FileReport, Problem};
use crate::process::{self, cancel};

/// Fault injection for the isolation tests, read by a child before it
/// checks its file: `abort:SUBSTR` aborts the process and `hang:SUBSTR`
/// never finishes, in the child whose file's path contains SUBSTR.
pub const FAILPOINT: &str = "RUNNER_CHILD_FAILPOINT";

/// The per-file time limit when `--timeout` is not given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Lines of a crashed child's stderr shown under its failure.
const STDERR_TAIL: usize = 20;

/// How much longer than its time-out the parent lets a child run before
/// killing it: the child normally ends itself first and says so.
const GRACE: Duration = Duration::from_secs(5);

/// How to start a child that checks one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// The runner binary.
    pub exe: PathBuf,
    /// The parent's arguments, passed on unchanged.
    pub args: Vec<OsString>,
    /// A child still running after this ends itself, and its file fails.
    pub timeout: Duration,
}

/// How a child ended.
enum Ended {
    Exited(ExitStatus),
    /// Still running at the parent's deadline: killed.
    Killed,
    /// The run was cancelled by this signal: killed.
    Cancelled(i32),
}

impl Isolation {
    /// Checks `rel` (shown as `shown`) in a child; `configurations` are the
    /// suite's, for the verdicts of a child that reported nothing.
    pub fn check(&self, rel: &Path, shown: &str, configurations: &[String]) -> FileReport {
        let mut command = Command::new(&self.exe);
        command
            .arg(child::FLAG)
            .arg(std::process::id().to_string())
            .arg(rel)
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        process::die_with_parent(&mut command);
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(e) => {
                let why = format!("cannot start a child to check it: {e}");
                return crashed(Kind::Crash, shown, configurations, why, String::new());
            }
        };
        // Both pipes are drained while the child runs, so a large report
        // or a flood on stderr cannot block it.
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let deadline = Instant::now()
            .checked_add(self.timeout)
            .and_then(|d| d.checked_add(GRACE));
        let ended = wait(&mut child, deadline);
        let (stdout, stderr) = (join(stdout), join(stderr));
        let excerpt = tail(&stderr);
        let seconds = self.timeout.as_secs();
        let (kind, why) = match ended {
            Ended::Exited(status) if status.success() => {
                return match serde_json::from_str(&stdout) {
                    Ok(report) => report,
                    Err(e) => crashed(
                        Kind::Crash,
                        shown,
                        configurations,
                        format!("the child's report is not readable: {e}"),
                        excerpt,
                    ),
                }
            }
            Ended::Exited(status) if status.code() == Some(child::TIMED_OUT) => (
                Kind::TimeOut,
                format!(
                    "did not finish within {seconds} s (it stopped itself; --timeout sets the limit)"
                ),
            ),
            Ended::Exited(status) => (Kind::Crash, ended_by(status)),
            Ended::Killed => (
                Kind::TimeOut,
                format!(
                    "did not finish within {seconds} s (the child was killed; --timeout sets the limit)"
                ),
            ),
            Ended::Cancelled(signal) => (
                Kind::Crash,
                format!("the run was cancelled by {}", cancel::name(signal)),
            ),
        };
        crashed(kind, shown, configurations, why, excerpt)
    }
}

/// The report of a file whose child ended without one (`kind`: a crash
/// or a time-out).
fn crashed(
    kind: Kind,
    shown: &str,
    configurations: &[String],
    why: String,
    stderr: String,
) -> FileReport {
    let summary = format!("the check of this file crashed: {why}");
    FileReport {
        path: shown.to_string(),
        configurations: verdict::all_failed(
            configurations.to_vec(),
            std::slice::from_ref(&summary),
        ),
        problems: vec![Problem {
            summary,
            details: stderr,
        }],
        site: Some(Site::file(kind)),
        ..FileReport::default()
    }
}

/// How a child ended, in words.
fn ended_by(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                6 => " (SIGABRT: an abort, such as a stack overflow)",
                9 => " (SIGKILL: killed, such as by the out-of-memory killer)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "ended without a status".to_string(),
    }
}

/// Waits for `child` until `deadline` (`None`: no limit), or until the run
/// is cancelled; a child still running then is killed.
fn wait(child: &mut Child, deadline: Option<Instant>) -> Ended {
    loop {
        let ended = match child.try_wait() {
            Ok(Some(status)) => return Ended::Exited(status),
            Ok(None) => match cancel::requested() {
                Some(signal) => Ended::Cancelled(signal),
                None if deadline.is_none_or(|d| Instant::now() < d) => {
                    thread::sleep(Duration::from_millis(5));
                    continue;
                }
                None => Ended::Killed,
            },
            Err(_) => Ended::Killed,
        };
        let _ = child.kill();
        let _ = child.wait();
        return ended;
    }
}

/// Reads a pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn join(reader: thread::JoinHandle<String>) -> String {
    reader.join().unwrap_or_default()
}

/// The last lines of `text`, indented as a failure's details are, kept
/// with the message that says why the child died ([`message_lines`]) when
/// it is above them: a backtrace after "memory allocation of N bytes
/// failed" once pushed the message out of the 20 lines shown.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(STDERR_TAIL);
    let mut shown: Vec<String> = Vec::new();
    let message = message_lines(&lines).filter(|m| m.start < start);
    if let Some(message) = message {
        shown.push("stderr, the message:".to_string());
        shown.extend(lines[message].iter().map(|l| l.to_string()));
    }
    if start > 0 {
        shown.push(format!("stderr, last {STDERR_TAIL} lines:"));
    } else if !lines.is_empty() {
        shown.push("stderr:".to_string());
    }
    shown.extend(lines[start..].iter().map(|l| l.to_string()));
    shown.join("\n")
}

/// The lines of the first message in a child's stderr that says why it
/// died: a panic (`thread '...' panicked at FILE:LINE:COL:` and its
/// message, up to 5 lines), a failed allocation, a stack overflow, or
/// another fatal runtime error.
fn message_lines(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let first = lines.iter().position(|l| {
        l.contains("' panicked at ")
            || l.starts_with("memory allocation of ")
            || l.contains("has overflowed its stack")
            || l.starts_with("fatal runtime error")
    })?;
    if !lines[first].contains("' panicked at ") {
        return Some(first..first + 1);
    }
    // The panic's message runs to the note or the backtrace after it.
    let end = (first + 1..lines.len().min(first + 6))
        .find(|&i| lines[i].starts_with("note: ") || lines[i].starts_with("stack backtrace:"))
        .unwrap_or(lines.len().min(first + 6));
    Some(first..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backtrace(frames: usize) -> Vec<String> {
        let mut lines = vec!["stack backtrace:".to_string()];
        lines.extend((0..frames).map(|i| format!("  {i}: frame_{i}")));
        lines
    }

    /// The message stays whatever follows it; a short stderr is shown
    /// whole, once.
    #[test]
    fn the_message_survives_a_long_backtrace() {
        let mut oom = vec!["memory allocation of 2400000000000 bytes failed".to_string()];
        oom.extend(backtrace(40));
        let shown = tail(&oom.join("\n"));
        assert!(
            shown.starts_with(
                "stderr, the message:\nmemory allocation of 2400000000000 bytes failed\nstderr, last 20 lines:\n"
            ),
            "{shown}"
        );
        assert!(shown.ends_with("  39: frame_39"), "{shown}");

        let mut panic = vec![
            "starting".to_string(),
            "thread 'worker-1' panicked at engine/src/x.rs:1:2:".to_string(),
            "index out of bounds".to_string(),
            "the len is 3".to_string(),
        ];
        panic.extend(backtrace(30));
        let shown = tail(&panic.join("\n"));
        assert!(
            shown.starts_with("stderr, the message:\nthread 'worker-1' panicked at engine/src/x.rs:1:2:\nindex out of bounds\nthe len is 3\nstderr, last 20 lines:\n"),
            "{shown}"
        );

        let short = "thread 'main' has overflowed its stack\nfatal runtime error: stack overflow";
        assert_eq!(tail(short), format!("stderr:\n{short}"));
    }
}

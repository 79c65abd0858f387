//! Checking each file in a child process of the runner, as trusted test
//! runners do (nextest runs each test in its own process): an abort, a
//! stack overflow, an out-of-memory kill or a time-out then fails that file
//! alone, with its name, how the child ended and the tail of its stderr,
//! and the rest of the suite, the summary, JSON and JUnit still come out.
//!
//! The child is the runner binary itself, started with the parent's own
//! arguments and [`CHILD_FILE`] naming the one file to check; it prints
//! that file's [`FileReport`] as JSON on stdout.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::check::site::{Kind, Site};
use crate::check::verdict;
use crate::check::{FileReport, Problem};

/// Set in a child: the file to check, relative to the scenario directory.
pub const CHILD_FILE: &str = "RUNNER_CHILD_FILE";

/// Fault injection for the isolation tests, read by a child before it
/// checks its file: `abort:SUBSTR` aborts the process and `hang:SUBSTR`
/// never finishes, in the child whose file's path contains SUBSTR.
pub const FAILPOINT: &str = "RUNNER_CHILD_FAILPOINT";

/// The per-file time limit when `--timeout` is not given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Lines of a crashed child's stderr shown under its failure.
const STDERR_TAIL: usize = 20;

/// How to start a child that checks one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// The runner binary.
    pub exe: PathBuf,
    /// The parent's arguments, passed on unchanged.
    pub args: Vec<OsString>,
    /// A child still running after this is killed, and its file fails.
    pub timeout: Duration,
}

impl Isolation {
    /// Checks `rel` (shown as `shown`) in a child; `configurations` are the
    /// suite's, for the verdicts of a child that reported nothing.
    pub fn check(&self, rel: &Path, shown: &str, configurations: &[String]) -> FileReport {
        let spawned = Command::new(&self.exe)
            .args(&self.args)
            .env(CHILD_FILE, rel)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
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
        let status = wait(&mut child, self.timeout);
        let (stdout, stderr) = (join(stdout), join(stderr));
        let tail = tail(&stderr);
        match status {
            None => crashed(
                Kind::TimeOut,
                shown,
                configurations,
                format!(
                    "did not finish within {} s (the child was killed; --timeout sets the limit)",
                    self.timeout.as_secs()
                ),
                tail,
            ),
            Some(status) if status.success() => match serde_json::from_str(&stdout) {
                Ok(report) => report,
                Err(e) => crashed(
                    Kind::Crash,
                    shown,
                    configurations,
                    format!("the child's report is not readable: {e}"),
                    tail,
                ),
            },
            Some(status) => crashed(Kind::Crash, shown, configurations, ended(status), tail),
        }
    }
}

/// In the child checking `rel`: acts on [`FAILPOINT`], if it names `rel`.
pub fn failpoint(rel: &Path) {
    let Ok(point) = std::env::var(FAILPOINT) else {
        return;
    };
    let Some((action, file)) = point.split_once(':') else {
        return;
    };
    if !rel.to_string_lossy().contains(file) {
        return;
    }
    match action {
        "abort" => std::process::abort(),
        "hang" => loop {
            thread::park();
        },
        _ => {}
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
fn ended(status: ExitStatus) -> String {
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

/// Waits for `child` at most `timeout`; `None`: it was still running and
/// has been killed.
fn wait(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
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

/// The last lines of `text`, indented as a failure's details are.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(STDERR_TAIL);
    let mut shown: Vec<String> = Vec::new();
    if start > 0 {
        shown.push(format!("stderr, last {STDERR_TAIL} lines:"));
    } else if !lines.is_empty() {
        shown.push("stderr:".to_string());
    }
    shown.extend(lines[start..].iter().map(|l| l.to_string()));
    shown.join("\n")
}

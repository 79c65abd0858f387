//! The child's side of isolation: how the runner knows it was started as a
//! child, and what it does beside checking its file.
//!
//! A child is started as `runner --isolated-child PARENT_PID FILE ARGS...`:
//! a hidden argument, not an environment variable, so that nothing in a
//! user's environment turns a run into a child (a `RUNNER_CHILD_FILE` set
//! in a shell once made the runner check one file, print one JSON line and
//! exit 0), and the parent's pid, which must be the child's parent. The
//! child watches its parent and its time-out itself ([`watch`]), so it
//! neither outlives the parent nor runs past `--timeout` when the parent
//! cannot stop it (stopped, or on a system without `PR_SET_PDEATHSIG`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use crate::process;

/// The first argument of a child.
pub const FLAG: &str = "--isolated-child";

/// The exit status of a child that ended itself at its time-out.
pub const TIMED_OUT: i32 = 124;

/// What a child was started with.
#[derive(Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The parent's pid.
    pub parent: u32,
    /// The file to check, relative to the scenario directory.
    pub rel: PathBuf,
    /// The parent's own arguments.
    pub args: Vec<OsString>,
}

/// The child invocation in `args` (the arguments after the program name):
/// `None` if they do not start with [`FLAG`]; an error if the rest is not
/// a child's, or names another parent than this process's.
pub fn invocation(args: &[OsString]) -> Option<Result<Invocation, String>> {
    if args.first().map(OsString::as_os_str) != Some(OsStr::new(FLAG)) {
        return None;
    }
    let internal =
        format!("{FLAG} is the runner's own (it starts a child with it); run `runner DIR`");
    let parent = args.get(1).and_then(|p| p.to_str()?.parse::<u32>().ok());
    let (Some(parent), Some(rel)) = (parent, args.get(2)) else {
        return Some(Err(internal));
    };
    if process::parent_pid().is_some_and(|p| p != parent) {
        return Some(Err(internal));
    }
    Some(Ok(Invocation {
        parent,
        rel: PathBuf::from(rel),
        args: args[3..].to_vec(),
    }))
}

/// Whether the parent that started this child is still its parent.
pub fn parent_alive(parent: u32) -> bool {
    process::parent_pid().is_none_or(|p| p == parent)
}

/// Ends this child, from a thread of its own, when its parent is gone or
/// when `timeout` (`None`: no limit) has passed since now, saying so on
/// stderr with exit status [`TIMED_OUT`].
pub fn watch(parent: u32, timeout: Option<Duration>, rel: &Path) {
    let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
    let seconds = timeout.map_or(0, |t| t.as_secs());
    let rel = rel.display().to_string();
    thread::spawn(move || loop {
        if !parent_alive(parent) {
            std::process::exit(1);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            eprintln!("runner: the check of {rel} did not finish within {seconds} s; stopping it");
            std::process::exit(TIMED_OUT);
        }
        thread::sleep(Duration::from_millis(50));
    });
}

/// In the child checking `rel`: acts on [`super::FAILPOINT`], if it names `rel`.
pub fn failpoint(rel: &Path) {
    let Ok(point) = std::env::var(super::FAILPOINT) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn only_the_hidden_argument_makes_a_child() {
        assert_eq!(invocation(&args(&["testdata"])), None);
        assert_eq!(invocation(&[]), None);
        let parent = process::parent_pid().unwrap_or(1).to_string();
        let child = invocation(&args(&[FLAG, &parent, "a/b.dd", "--", "-odd"]));
        assert_eq!(
            child,
            Some(Ok(Invocation {
                parent: parent.parse().unwrap(),
                rel: "a/b.dd".into(),
                args: args(&["--", "-odd"]),
            }))
        );
        for bad in [&[FLAG][..], &[FLAG, "x", "a.dd"], &[FLAG, &parent]] {
            let e = invocation(&args(bad)).unwrap().unwrap_err();
            assert!(e.contains("is the runner's own"), "{e}");
        }
    }

    /// A child names its parent: anyone else starting the runner with the
    /// hidden argument (another pid) is told it is internal.
    #[cfg(unix)]
    #[test]
    fn another_parent_is_refused() {
        let other = (process::parent_pid().unwrap() + 1).to_string();
        let e = invocation(&args(&[FLAG, &other, "a.dd"])).unwrap();
        assert!(e.is_err());
    }
}

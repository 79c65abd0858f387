//! Nothing a run starts outlives it, and a cancelled run changes nothing
//! after the cancel. A signal to the runner's pid (as a CI cancel, an IDE
//! or a supervisor sends it, to the pid rather than the process group) once
//! left the child checking the current file running without a time-out,
//! and a killed `--rewrite`'s child wrote its golden seconds later.
//!
//! Each run carries a mark in its environment, which every process it
//! starts inherits: whatever is left of a run is found by walking `/proc`.

#![cfg(target_os = "linux")]

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use runner::process::living_with_env;

use crate::common::Project;

const MARK: &str = "RUNNER_LIFETIME_TEST";

/// One configuration, one worker, one schedule: a file is one run.
const ONE_RUN: &str =
    "configurations:\n  solo: {sharing: false}\nworkers: [1]\nschedules: [round-robin]\n";

/// A file whose check takes seconds in a debug build: a big INSERT.
const SLOW: &str = "statement\nCREATE TABLE t (a int)\n----\n\nstatement\nINSERT INTO t SELECT * FROM generate_series(1, 400000)\n----\n\nquery\nSELECT count(*) FROM t\n----\n";

/// The processes of one run; whatever is left of it is killed on drop, so
/// that a failing test leaves nothing behind either.
struct Marked(String);

impl Marked {
    fn new(case: &str) -> Marked {
        Marked(format!("{case}-{}", std::process::id()))
    }

    fn living(&self) -> Vec<u32> {
        living_with_env(MARK, &self.0)
    }

    /// Waits up to `limit` for `done` to hold of the run's processes.
    fn wait_until(&self, limit: Duration, done: impl Fn(&[u32]) -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if done(&self.living()) {
                return true;
            }
            sleep(Duration::from_millis(20));
        }
        done(&self.living())
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        for pid in self.living() {
            signal(pid, libc::SIGKILL);
        }
    }
}

fn signal(pid: u32, signal: i32) {
    // SAFETY: sending a signal to a process of this test.
    unsafe { libc::kill(pid as libc::pid_t, signal) };
}

/// The runner binary on `dir` with `args`, marked, with the default action
/// for every signal the test sends (a test run in the background of a
/// shell would otherwise pass SIGINT on ignored), and without CI's
/// variables: the rewrites here are of a scratch project, which the runner
/// refuses under `CI=true`, and a job summary is not theirs to append to.
fn start(dir: &Path, args: &[&str], marked: &Marked) -> Child {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_runner"));
    command
        .arg(dir)
        .args(args)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env(MARK, &marked.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: signal is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            for sig in [libc::SIGINT, libc::SIGHUP, libc::SIGTERM] {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    command.spawn().unwrap()
}

fn project() -> Project {
    let p = Project::new();
    fs::write(p.root.join("testdata/suite.yaml"), ONE_RUN).unwrap();
    p.scenario("slow.dd", SLOW);
    p
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let bytes = fs::read(e.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            (e.path().display().to_string(), text)
        })
        .collect();
    files.sort();
    files
}

/// Kills the runner's pid with each signal in the middle of a check and of
/// a `--rewrite` of a slow file: within seconds no process of the run is
/// left, and no golden changes afterwards, though the slow file's check
/// would have finished and written its golden long before the end.
#[test]
fn a_signal_to_the_runner_leaves_no_process_and_changes_no_golden() {
    // How long the slow file takes, checked whole (and that it passes).
    let baseline = project();
    let marked = Marked::new("baseline");
    let started = Instant::now();
    let out = start(&baseline.root.join("testdata"), &["--rewrite"], &marked)
        .wait_with_output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(baseline.read_golden("slow.dd").is_some());

    let cases = [
        ("check-kill", libc::SIGKILL, false),
        ("check-hup", libc::SIGHUP, false),
        ("rewrite-term", libc::SIGTERM, true),
        ("rewrite-kill", libc::SIGKILL, true),
        ("rewrite-int", libc::SIGINT, true),
    ];
    let mut cancelled = Vec::new();
    for (case, sig, rewrite) in cases {
        let p = project();
        p.golden("slow.dd", "a stale golden\n");
        let marked = Marked::new(case);
        let args: &[&str] = if rewrite { &["--rewrite"] } else { &[] };
        let mut runner = start(&p.root.join("testdata"), args, &marked);
        // The runner and the child checking the slow file.
        assert!(
            marked.wait_until(Duration::from_secs(30), |pids| pids.len() >= 2),
            "{case}: no child started"
        );
        sleep(Duration::from_millis(300));
        signal(runner.id(), sig);
        let status = runner.wait().unwrap();
        let after_cancel = snapshot(&p.root.join("goldens"));
        // Far less than the slow file's check has left to run.
        let gone = marked.wait_until(Duration::from_secs(2), |pids| pids.is_empty());
        assert!(
            gone,
            "{case}: processes of the run left after the runner died: {:?}",
            marked.living()
        );
        assert!(!status.success(), "{case}: {status:?}");
        cancelled.push((case, p, after_cancel));
    }
    // Longer than the slow file's check takes, from its start.
    sleep(took * 2 + Duration::from_secs(2));
    for (case, p, after_cancel) in &cancelled {
        assert_eq!(
            &snapshot(&p.root.join("goldens")),
            after_cancel,
            "{case}: a golden changed after the cancel"
        );
        assert_eq!(
            p.read_golden("slow.dd").as_deref(),
            Some("a stale golden\n"),
            "{case}"
        );
    }
}

/// A child ends itself at its time-out, also when its parent cannot stop
/// it: here the runner is stopped (SIGSTOP) while its child hangs.
#[test]
fn a_child_ends_itself_at_its_time_out() {
    let p = project();
    p.scenario("hangs.dd", "statement\nCREATE TABLE t (a int)\n----\n");
    let marked = Marked::new("timeout");
    let mut command = Command::new(env!("CARGO_BIN_EXE_runner"));
    command
        .arg(p.root.join("testdata"))
        .args(["--timeout", "2", "--filter", "hangs"])
        .env(MARK, &marked.0)
        .env("RUNNER_CHILD_FAILPOINT", "hang:hangs.dd")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let runner = command.spawn().unwrap();
    assert!(marked.wait_until(Duration::from_secs(30), |pids| pids.len() >= 2));
    signal(runner.id(), libc::SIGSTOP);
    let ended = marked.wait_until(Duration::from_secs(15), |pids| pids.len() == 1);
    signal(runner.id(), libc::SIGCONT);
    assert!(ended, "the hanging child did not end itself");
    let out = runner.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(": the check of this file crashed: did not finish within 2 s (it stopped itself; --timeout sets the limit)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("runner: the check of hangs.dd did not finish within 2 s; stopping it"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}

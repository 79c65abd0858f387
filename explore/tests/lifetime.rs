//! Nothing `explore --jobs` starts outlives it. SIGTERM to the explorer's
//! pid once orphaned both jobs: they explored on and held the caller's
//! stderr pipe, so that a wrapper waiting for its end hung.
//!
//! Each run carries a mark in its environment, which its jobs inherit:
//! whatever is left of it is found by walking `/proc`.

#![cfg(target_os = "linux")]

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use runner::process::living_with_env;

const MARK: &str = "EXPLORE_LIFETIME_TEST";

/// The marked processes; whatever is left is killed when the test ends.
struct Marked(String);

impl Marked {
    fn living(&self) -> Vec<u32> {
        living_with_env(MARK, &self.0)
    }

    /// Waits up to `limit` for `done` to hold of the run's processes.
    fn wait_until(&self, limit: Duration, done: impl Fn(&[u32]) -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit && !done(&self.living()) {
            sleep(Duration::from_millis(20));
        }
        done(&self.living())
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        for pid in self.living() {
            // SAFETY: killing a process of this test.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        }
    }
}

/// `explore --jobs 2` over more seeds than it could explore, ended by TERM
/// or KILL to its pid: its stderr ends within seconds (a wrapper reading
/// it to the end does not hang) and no job is left.
#[test]
fn a_signal_to_the_explorer_ends_its_jobs() {
    for (case, signal) in [("term", libc::SIGTERM), ("kill", libc::SIGKILL)] {
        let out = tempfile::tempdir().unwrap();
        let marked = Marked(format!("{case}-{}", std::process::id()));
        let mut explorer = Command::new(env!("CARGO_BIN_EXE_explore"))
            .args(["--jobs", "2", "--seeds", "0..1000000", "--out"])
            .arg(out.path())
            .env(MARK, &marked.0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = explorer.stderr.take().unwrap();
        let (sent, ended) = mpsc::channel();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            let _ = sent.send(());
        });
        assert!(
            marked.wait_until(Duration::from_secs(30), |pids| pids.len() >= 3),
            "{case}: the jobs did not start"
        );
        sleep(Duration::from_millis(300));
        // SAFETY: signalling the explorer this test started.
        unsafe { libc::kill(explorer.id() as libc::pid_t, signal) };
        let status = explorer.wait().unwrap();
        assert!(!status.success(), "{case}: {status:?}");
        assert!(
            ended.recv_timeout(Duration::from_secs(5)).is_ok(),
            "{case}: the explorer's stderr stayed open after it died: {:?}",
            marked.living()
        );
        assert!(
            marked.wait_until(Duration::from_secs(2), |pids| pids.is_empty()),
            "{case}: jobs left after the explorer died: {:?}",
            marked.living()
        );
    }
}

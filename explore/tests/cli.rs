//! The `explore` binary's command line, run as a user runs it: `--help` and
//! `--version` succeed, and an unknown flag or a bad value is a usage error
//! (exit status 2, the usage on stderr), as for `runner` and `oracle`.

use std::process::Command;

/// The `explore` binary with `args`: exit code, stdout, stderr.
fn explore(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_explore"))
        .args(args)
        .output()
        .expect("explore runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn help_lists_every_flag() {
    let (code, out, _) = explore(&["--help"]);
    assert_eq!(code, Some(0));
    for flag in [
        "--seeds <A..B>",
        "--jobs <N>",
        "--partition <K/N>",
        "--out <DIR>",
        "--steps <N>",
        "--max-failures <N>",
        "--seconds <N>",
        "--annotations <github|none>",
        "--artifact <NAME>",
        "-h, --help",
        "--version",
    ] {
        assert!(out.contains(flag), "{flag} missing from:\n{out}");
    }
}

#[test]
fn version_names_the_binary() {
    let (code, out, _) = explore(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, format!("explore {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let (code, out, err) = explore(&["--bogus"]);
    assert_eq!(code, Some(2));
    assert_eq!(out, "", "nothing explored");
    assert!(
        err.starts_with("error: unexpected argument '--bogus' found"),
        "{err}"
    );
    assert!(err.contains("Usage: explore [OPTIONS]"), "{err}");
}

#[test]
fn a_value_out_of_range_is_a_usage_error() {
    let (code, _, err) = explore(&["--partition", "3/2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("takes K/N with 1 <= K <= N, not 3/2"), "{err}");
}

/// A run that would explore nothing once printed "0 failures" and exited
/// 0; `--max-failures 0` silently meant 1.
#[test]
fn a_run_that_would_explore_nothing_is_a_usage_error() {
    for (args, says) in [
        (&["--seeds", "10..5"][..], "not 10..5: no seed to explore"),
        (&["--seeds", "5..5"], "not 5..5: no seed to explore"),
        (&["--seconds", "0"], "must be at least 1"),
        (&["--max-failures", "0"], "must be at least 1"),
    ] {
        let (code, out, err) = explore(args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `--out` is checked before anything is explored: a finding must have
/// somewhere to go.
#[test]
fn an_out_that_cannot_be_written_is_a_usage_error_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    for out in [file.clone(), file.join("below")] {
        let (code, stdout, err) = explore(&["--seeds", "0..1", "--out", out.to_str().unwrap()]);
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{err}");
        assert!(
            err.starts_with(&format!(
                "explore: --out {}: cannot write findings there: ",
                out.display()
            )),
            "{err}"
        );
    }
}

/// Seeds are drawn lazily and the time budget holds from the start: the
/// whole u64 range with `--seconds 1` once collected every seed first and
/// allocated until killed. It must end on its own, long before the limit
/// this test allows it.
#[test]
fn the_whole_seed_range_keeps_the_time_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_explore"))
        .args(["--seeds", "0..18446744073709551615", "--seconds", "1"])
        .args(["--steps", "3", "--out"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let limit = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a one-second budget over the whole seed range ran past 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().starts_with("explored "),
        "{stdout}"
    );
}

//! The `runner` binary as a user runs it: each file checked in a child
//! process, so that a child that aborts or hangs fails only its file; a
//! child protocol nothing in the environment enters; a huge or negative
//! `--timeout`; and `--version`, `--help` and usage errors (exit status 2).

use std::ffi::OsStr;
use std::fs;

use crate::common::Project;

/// The `runner` binary with `args`: exit code, stdout, stderr.
fn runner_binary(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Each file is checked in a child process of the binary: a child that
/// aborts (a stack overflow once killed the whole suite, with no summary)
/// or hangs fails its own file, named, and every other file, the summary,
/// the JSON report and the JUnit file still come out.
#[cfg(unix)]
#[test]
fn a_child_that_aborts_or_hangs_fails_only_its_file() {
    let p = Project::new();
    let scenario = "statement\nCREATE TABLE t (a int)\n----\n";
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n";
    for name in ["aborts.dd", "fine.dd", "hangs.dd"] {
        p.scenario(name, scenario).golden(name, golden);
    }
    let root = p.root.display().to_string();
    let testdata = p.root.join("testdata");
    let junit = p.root.join("junit.xml");
    let run = |point: &str, format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
            .args([
                testdata.to_str().unwrap(),
                "--timeout",
                "2",
                "--format",
                format,
            ])
            .arg("--junit")
            .arg(&junit)
            .env("RUNNER_CHILD_FAILPOINT", point)
            // Its failures are on purpose: none for GitHub under CI.
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout)
            .unwrap()
            .replace(&root, "ROOT");
        (out.status.code(), stdout)
    };
    let (code, out) = run("abort:aborts.dd", "text");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with(
            "FAIL ROOT/testdata/aborts.dd: the check of this file crashed: killed by signal 6 (SIGABRT: an abort, such as a stack overflow)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\nPASS ROOT/testdata/fine.dd\nPASS ROOT/testdata/hangs.dd\n"),
        "{out}"
    );
    assert!(out.ends_with("\n2 passed, 1 failed\n"), "{out}");
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<testcase name="aborts.dd::solo""#), "{xml}");
    assert!(xml.contains(r#"failures="2""#), "{xml}");

    let (code, out) = run("hang:hangs.dd", "json");
    assert_eq!(code, Some(1), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["passed"], 2);
    assert_eq!(doc["failed"], 1);
    let hung = &doc["files"][2];
    assert_eq!(hung["path"], "ROOT/testdata/hangs.dd");
    let summary = hung["problems"][0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with("the check of this file crashed: did not finish within 2 s"),
        "{hung}"
    );
}

#[test]
fn the_binary_prints_its_version_and_help_and_exits_2_on_usage_errors() {
    let (code, out, _) = runner_binary(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, format!("runner {}\n", env!("CARGO_PKG_VERSION")));
    let (code, out, _) = runner_binary(&["--help"]);
    assert_eq!(code, Some(0));
    for flag in [
        "--goldens",
        "--suite",
        "--filter",
        "--run",
        "--partition",
        "--jobs",
        "--format",
        "--junit",
        "--timeout",
        "--rewrite",
        "--version",
        "-h, --help",
    ] {
        assert!(out.contains(flag), "{flag} missing from:\n{out}");
    }
    let (code, _, err) = runner_binary(&["testdata", "--bogus"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("runner: unknown option `--bogus`\n"),
        "{err}"
    );
    let (code, _, err) = runner_binary(&[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("missing the scenario directory"), "{err}");
}

/// The binary on `testdata` of `p` with `args` and `env`: exit code,
/// stdout and stderr with the root as `ROOT`.
fn on_project(p: &Project, args: &[&str], env: &[(&str, &OsStr)]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
        .arg(p.root.join("testdata"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    let root = p.root.display().to_string();
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).replace(&root, "ROOT");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

fn passing_project() -> Project {
    let p = Project::new();
    p.scenario("a.dd", "statement\nCREATE TABLE t (a int)\n----\n")
        .golden("a.dd", "statement\nCREATE TABLE t (a int)\n----\nok\n");
    p
}

/// `RUNNER_CHILD_FILE` in a user's environment made the runner act as a
/// child: check that one file (even a missing one), print one JSON line
/// and exit 0. The child protocol is a hidden argument naming the parent;
/// no variable changes what a run does.
#[test]
fn the_child_protocol_cannot_be_entered_from_the_environment() {
    let p = passing_project();
    let expected = (
        Some(0),
        "PASS ROOT/testdata/a.dd\n1 passed, 0 failed\n".to_string(),
    );
    let plain = on_project(&p, &[], &[]);
    assert_eq!((plain.0, plain.1), expected.clone());
    for file in ["a.dd", "missing.dd"] {
        let (code, out, _) = on_project(&p, &[], &[("RUNNER_CHILD_FILE", OsStr::new(file))]);
        assert_eq!((code, out), expected.clone(), "RUNNER_CHILD_FILE={file}");
    }
    // The hidden argument itself, from anyone but the parent it names.
    let (code, out, err) = runner_binary(&["--isolated-child", "1", "a.dd", "testdata"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.contains("--isolated-child is the runner's own"),
        "{err}"
    );
}

/// `--timeout` of 2^63 seconds or more panicked ("overflow when adding
/// duration to instant"); the deadline saturates (no limit). A negative
/// value was "unknown option `-1`".
#[test]
fn a_huge_or_negative_timeout() {
    let p = passing_project();
    for huge in ["9223372036854775808", "18446744073709551615"] {
        let (code, out, err) = on_project(&p, &["--timeout", huge], &[]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert_eq!(out, "PASS ROOT/testdata/a.dd\n1 passed, 0 failed\n");
    }
    let (code, _, err) = on_project(&p, &["--timeout", "-1"], &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("runner: --timeout `-1`: expected a positive number of seconds\n"),
        "{err}"
    );
}

/// A suite without a scenario file (here only `a.DD` and `b.sql`) once
/// passed with "0 passed, 0 failed" and exit status 0.
#[test]
fn a_suite_without_scenarios_says_so_and_fails() {
    let p = Project::new();
    fs::write(p.root.join("testdata/a.DD"), "statement\nSELECT 1\n----\n").unwrap();
    fs::write(p.root.join("testdata/b.sql"), "SELECT 1;\n").unwrap();
    let (code, out, err) = on_project(&p, &[], &[]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(
        err,
        "runner: no scenario files under ROOT/testdata (a scenario is a *.dd or *.slt file; the names are case-sensitive)\n"
    );
}

/// `CI` set to bytes that are not UTF-8 was read as unset, and
/// `REWRITE=1` rewrote goldens; it guards as any other set `CI` does.
#[cfg(unix)]
#[test]
fn ci_in_any_bytes_guards_goldens() {
    use std::os::unix::ffi::OsStrExt;
    let p = passing_project();
    p.golden("a.dd", "a stale golden\n");
    let ci = OsStr::from_bytes(b"\xff\xfe");
    let (code, out, err) = on_project(&p, &[], &[("CI", ci), ("REWRITE", OsStr::new("1"))]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.starts_with("runner: refusing to rewrite goldens under CI=\u{fffd}\u{fffd}:"),
        "{err}"
    );
    assert_eq!(p.read_golden("a.dd").as_deref(), Some("a stale golden\n"));
}

/// Every reproduce line runs as printed, whatever the file is called: a
/// file named `-dash.dd` once gave `--filter -dash.dd`, which the runner
/// rejected ("unknown option `-d`"), and a newline in a name split the
/// `FAIL` line. Each line is run by bash with the runner in place of
/// `cargo run -p runner --`, and must check its one file.
#[cfg(unix)]
#[test]
fn every_reproduce_line_runs_as_printed() {
    let p = Project::new();
    let names = [
        "-dash.dd",
        "with space.dd",
        "it's \"quoted\".dd",
        "new\nline.dd",
        "back\\slash $HOME.dd",
    ];
    for name in names {
        // Stale goldens: every file fails with a golden diff.
        p.scenario(name, "statement\nCREATE TABLE t (a int)\n----\n")
            .golden(name, "statement\nCREATE TABLE t (a int)\n----\nstale\n");
    }
    let (code, out, _) = on_project(&p, &[], &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.ends_with("0 passed, 5 failed\n"), "{out}");
    assert!(out.contains("FAIL ROOT/testdata/new\\nline.dd: "), "{out}");
    let lines: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("reproduce: "))
        .collect();
    assert_eq!(lines.len(), names.len(), "{out}");
    let runner = env!("CARGO_BIN_EXE_runner");
    let root = p.root.display().to_string();
    for line in lines {
        let command = line
            .replace("ROOT", &root)
            .replacen("cargo run -p runner --", runner, 1);
        let run = std::process::Command::new("bash")
            .args(["-c", &command])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{line}: {stdout}{stderr}");
        assert!(
            stdout.ends_with("\n0 passed, 1 failed\n"),
            "{line}: {stdout}"
        );
    }
}

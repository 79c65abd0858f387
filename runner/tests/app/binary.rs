//! The `runner` binary as a user runs it: each file checked in a child
//! process, so that a child that aborts or hangs fails only its file; and
//! `--version`, `--help` and usage errors (exit status 2).

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

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

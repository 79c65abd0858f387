//! The `explore` binary under GitHub Actions, as the nightly workflow runs
//! it: in `--jobs` child processes, with `--artifact` naming where `--out`
//! is uploaded. A clean exploration writes the one-line job summary and no
//! annotation, and the children's finding lines never reach its output.

use std::process::Command;

#[test]
fn a_clean_exploration_writes_one_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let out = Command::new(env!("CARGO_BIN_EXE_explore"))
        .args(["--seeds", "0..2", "--steps", "3", "--jobs", "2"])
        .args(["--artifact", "explore-part-1", "--out"])
        .arg(dir.path().join("out"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("explore runs");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        !stdout.contains("::") && !stdout.contains("explore-finding"),
        "{stdout}"
    );
    assert!(stdout.contains("explored 2 scenarios"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&summary).unwrap(),
        "### <code>explore --seeds 0..2</code>: explored 2 scenarios, 0 failures\n"
    );
}

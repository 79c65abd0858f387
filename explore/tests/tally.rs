//! An explorer run ends with the tally of the kinds it generated, every
//! kind listed (a kind never generated shows as 0), on the line before its
//! summary; under `--jobs`, each job's tally and then their sum.

use std::process::Command;

use explore::generate::Tally;

/// The `explore` binary's stdout lines, with `args`, exploring into `out`.
fn explore(args: &[&str], out: &std::path::Path) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_explore"))
        .args(args)
        .args(["--out".as_ref(), out.as_os_str()])
        .output()
        .expect("explore runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    stdout.lines().map(String::from).collect()
}

#[test]
fn a_run_ends_with_its_tally_then_the_summary() {
    let out = std::env::temp_dir().join(format!("explore-tally-{}", std::process::id()));
    let one = explore(&["--seeds", "0..2", "--steps", "4"], &out);
    let [.., tally, summary] = one.as_slice() else {
        panic!("{one:?}");
    };
    assert!(summary.starts_with("explored 2 scenarios in "), "{summary}");
    let tally = Tally::parse(tally).unwrap_or_else(|| panic!("a tally: {tally}"));
    for kind in ["directives statement ", "step 0", "DROP VIEW ", "other 0"] {
        assert!(tally.to_string().contains(kind), "{kind} in {tally}");
    }

    // Two jobs: each job's tally, then their sum, which is the one run's.
    let jobs = explore(&["--seeds", "0..2", "--steps", "4", "--jobs", "2"], &out);
    let [.., sum, summary] = jobs.as_slice() else {
        panic!("{jobs:?}");
    };
    assert!(summary.starts_with("explored 2 scenarios in "), "{summary}");
    let each: Vec<Tally> = jobs
        .iter()
        .filter_map(|l| l.strip_prefix("job ")?.split_once(": "))
        .filter_map(|(_, line)| Tally::parse(line))
        .collect();
    assert_eq!(each.len(), 2, "{jobs:?}");
    assert_eq!(Tally::parse(sum), Some(tally));
    let _ = std::fs::remove_dir_all(&out);
}

//! The oracle end to end, on a real server named by `PGURL` (`.ci/run`
//! starts one with `.ci/with-postgres`). Without `PGURL` each test says it
//! was skipped and passes: there is nothing to hold the goldens to.

use oracle::report::{render, Totals};
use oracle::{check_suite, connect, FileReport, Verdict};
use std::fs;
use std::path::Path;

/// A client, or `None` (and a note on stderr) when no server is given.
fn client(test: &str) -> Option<postgres::Client> {
    match std::env::var("PGURL") {
        Ok(url) if !url.is_empty() => Some(connect(Some(&url)).expect("PGURL names a server")),
        _ => {
            eprintln!(
                "{test}: skipped, no PostgreSQL server (set PGURL, or run under .ci/with-postgres)"
            );
            None
        }
    }
}

/// A suite of one scenario, `scenario` in `testdata/f.dd`, and its golden.
fn suite(root: &Path, scenario: &str, golden: &str) {
    fs::create_dir_all(root.join("testdata")).unwrap();
    fs::create_dir_all(root.join("goldens")).unwrap();
    fs::write(
        root.join("testdata/suite.yaml"),
        "configurations:\n  solo: {sharing: false}\nworkers: [1]\nschedules: [round-robin]\n",
    )
    .unwrap();
    fs::write(root.join("testdata/f.dd"), scenario).unwrap();
    fs::write(root.join("goldens/f.dd"), golden).unwrap();
}

/// The scenario of a golden: outputs emptied.
fn emptied(golden: &str) -> String {
    let mut out = Vec::new();
    let mut in_output = false;
    for line in golden.lines() {
        match line {
            "----" => {
                in_output = true;
                out.push(line);
            }
            "" => {
                in_output = false;
                out.push(line);
            }
            _ if !in_output => out.push(line),
            _ => {}
        }
    }
    out.join("\n") + "\n"
}

fn check(root: &Path) -> Vec<FileReport> {
    let mut client = client("check").unwrap();
    check_suite(&mut client, &root.join("testdata"), None, None).unwrap()
}

#[test]
fn a_wrong_row_in_a_real_golden_fails_naming_file_and_line() {
    if client("a_wrong_row_in_a_real_golden_fails_naming_file_and_line").is_none() {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let golden = fs::read_to_string(repo.join("goldens/tables/basic.dd")).unwrap();
    let scenario = fs::read_to_string(repo.join("testdata/tables/basic.dd")).unwrap();
    let root = tempfile::tempdir().unwrap();
    suite(root.path(), &scenario, &golden);
    let (text, totals) = render(&check(root.path()));
    assert_eq!(totals.failed, 0, "the golden as committed agrees:\n{text}");

    // `2 two false` claimed as `2 zwei false`, in the first read (line 13).
    let wrong = golden.replacen("2 two false", "2 zwei false", 1);
    assert_ne!(wrong, golden);
    suite(root.path(), &scenario, &wrong);
    let files = check(root.path());
    let (text, totals) = render(&files);
    assert_eq!(totals.failed, 1, "{text}");
    let shown = root.path().join("goldens/f.dd").display().to_string();
    // Under GitHub Actions: one annotation, on that line of the golden.
    let annotations = oracle::github::annotations(&files);
    assert_eq!(annotations.lines().count(), 1, "{annotations}");
    assert!(
        annotations.starts_with(&format!("::error file={shown},line=13,title=oracle%3A PostgreSQL answers otherwise::{shown}:13: PostgreSQL answers otherwise%0Asql: SELECT * FROM t%0Agolden:%0A")),
        "{annotations}"
    );
    assert!(
        annotations.contains("%0A  2 zwei false%0A"),
        "{annotations}"
    );
    assert!(
        text.contains(&format!("FAIL {shown}\n    {shown}:13: PostgreSQL answers otherwise\n      sql: SELECT * FROM t\n")),
        "{text}"
    );
    assert!(
        text.contains("        2 zwei false\n") && text.contains("        2 two false\n"),
        "{text}"
    );
    assert!(text.ends_with("1 failed\n"), "{text}");
}

#[test]
fn as_of_peeks_and_markers_on_a_server() {
    if client("as_of_peeks_and_markers_on_a_server").is_none() {
        return;
    }
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n\n\
        statement\nINSERT INTO t VALUES (1)\n----\nok\n\n\
        statement\nCREATE DEFAULT INDEX ON t\n----\nok\n\n\
        statement\nINSERT INTO t VALUES (2); DELETE FROM t WHERE a = 1\n----\nok\n\n\
        tick\n----\nok\n\n\
        query\nSELECT a FROM t AS OF 1\n----\n1\n\n\
        peek index=t_primary_idx as-of=2\n----\n1\n2\n\n\
        peek index=t_primary_idx name=p\n----\nissued\n\n\
        statement\nINSERT INTO t VALUES (7)\n----\nok\n\n\
        await name=p\n----\n2\n\n\
        query skip-postgres=errors-as-data\nSELECT 1/0\n----\nerror: Evaluation error: division by zero\n\n\
        query skip-postgres=introspection\nSELECT count(*) FROM t\n----\n2\n";
    let root = tempfile::tempdir().unwrap();
    suite(root.path(), &emptied(golden), golden);
    let files = check(root.path());
    let verdicts: Vec<(usize, Verdict)> = files[0]
        .findings
        .iter()
        .map(|f| (f.line, f.verdict.clone()))
        .collect();
    assert_eq!(
        verdicts,
        [
            (1, Verdict::Agrees),
            (6, Verdict::Agrees),
            (11, Verdict::Agrees),
            (16, Verdict::Agrees),
            (25, Verdict::Agrees),
            (30, Verdict::Agrees),
            (39, Verdict::Agrees),
            (44, Verdict::Agrees),
            (48, Verdict::Stale("errors-as-data".into())),
            (53, Verdict::Stale("introspection".into())),
        ],
        "{:#?}",
        files[0]
    );
    let (_, totals) = render(&files);
    assert_eq!(
        totals,
        Totals {
            passed: 8,
            failed: 2
        }
    );
}

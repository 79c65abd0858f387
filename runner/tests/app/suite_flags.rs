//! The suite-wide flags on a project of many files: `--partition` shards
//! run every file exactly once, `--jobs` does not change the report, and
//! `--format json` and `--junit` report every file and configuration.

use runner::app::{Env, Status};
use runner::cli::{Options, ReportFormat};
use std::fs;

use crate::common::{fake, Built, Project};

/// A project of 12 files, some failing, for the suite-wide flags.
fn many_files() -> Project {
    let p = Project::new();
    for i in 0..12 {
        let rel = format!("d{}/f{i}.dd", i % 3);
        p.scenario(&rel, "tick\n----\n");
        if i % 5 != 0 {
            p.golden(&rel, "tick\n----\nok\n");
        }
    }
    p.golden("d9/orphan.dd", "tick\n----\nok\n");
    p
}

#[test]
fn partitions_run_every_file_exactly_once() {
    let p = many_files();
    let (_, whole) = p.run();
    let mut seen: Vec<String> = Vec::new();
    for i in 1..=3 {
        let options = Options {
            partition: Some(format!("{i}/3").parse().unwrap()),
            ..p.options()
        };
        let (_, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        seen.extend(
            out.lines()
                .filter(|l| l.starts_with("PASS ") || l.starts_with("FAIL "))
                .map(|l| l.split([':', ' ']).nth(1).unwrap().to_string()),
        );
    }
    seen.sort();
    let mut all: Vec<String> = whole
        .lines()
        .filter(|l| l.starts_with("PASS ") || l.starts_with("FAIL "))
        .map(|l| l.split([':', ' ']).nth(1).unwrap().to_string())
        .collect();
    all.sort();
    assert_eq!(all.len(), 13);
    assert_eq!(seen, all);
}

#[test]
fn jobs_do_not_change_the_report() {
    let p = many_files();
    let (status1, one) = p.run();
    for jobs in [2, 5] {
        let options = Options {
            jobs,
            ..p.options()
        };
        let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert_eq!(
            (status.clone(), out.as_str()),
            (status1.clone(), one.as_str()),
            "jobs={jobs}"
        );
    }
}

#[test]
fn junit_and_json_reports() {
    let p = many_files();
    let junit = p.root.join("junit.xml");
    let options = Options {
        junit: Some(junit.clone()),
        format: ReportFormat::Json,
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status, Status::Failed);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["passed"], 9);
    assert_eq!(doc["failed"], 4);
    assert_eq!(doc["files"].as_array().unwrap().len(), 13);
    let f0 = &doc["files"][0];
    assert_eq!(f0["path"], "ROOT/testdata/d0/f0.dd");
    assert_eq!(f0["passed"], false);
    assert_eq!(f0["configurations"][0]["name"], "solo");
    assert_eq!(f0["configurations"][0]["status"], "failed");
    assert!(f0["reproduce"]
        .as_str()
        .unwrap()
        .contains("--filter d0/f0.dd"));
    let xml = fs::read_to_string(&junit).unwrap();
    // 12 files x 2 configurations, and the orphan golden.
    assert!(
        xml.contains(r#"<testsuite name="conformance" tests="25""#),
        "{xml}"
    );
    assert!(xml.contains(r#"failures="7""#), "{xml}");
    assert!(
        xml.contains(r#"<testcase name="d0/f3.dd::shared" classname="d0"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testcase name="d0/f0.dd::solo" classname="d0">"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testcase name="d9/orphan.dd" classname="d9">"#),
        "{xml}"
    );
}

/// `--junit` is tried up front as it will be written: a directory (named
/// with or without a trailing `/`) or a missing directory is a usage error
/// before any file runs, naming what is wrong (`nodir/` once said "Is a
/// directory" of a directory that does not exist).
#[test]
fn a_junit_path_that_cannot_be_written_is_refused_up_front() {
    let p = many_files();
    let root = p.root.display().to_string();
    let dir = p.root.join("testdata");
    let cases = [
        (
            dir.clone(),
            format!("--junit {root}/testdata: is a directory; give a file"),
        ),
        (
            p.root.join("testdata/"),
            format!("--junit {root}/testdata/: is a directory; give a file"),
        ),
        (
            p.root.join("nodir/x.xml"),
            format!("--junit {root}/nodir/x.xml: no directory {root}/nodir"),
        ),
        (
            p.root.join("nodir/"),
            format!("--junit {root}/nodir/: no directory {root}/nodir/"),
        ),
    ];
    for (junit, message) in cases {
        let options = Options {
            junit: Some(junit),
            ..p.options()
        };
        let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert_eq!((status, out.as_str()), (Status::Usage(message), ""));
    }
    // A new file is tried (created and removed), then written at the end.
    let options = Options {
        junit: Some(p.root.join("new.xml")),
        ..p.options()
    };
    let _ = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert!(fs::read_to_string(p.root.join("new.xml"))
        .unwrap()
        .contains("<testsuite"));
}

/// A JUnit report that cannot be written at the end (`/dev/full` opens,
/// then every write fails) once lost the summary, and with `--format json`
/// everything: both come out whole, and the exit status is 2.
#[cfg(target_os = "linux")]
#[test]
fn a_junit_report_that_cannot_be_written_loses_nothing_else() {
    let p = many_files();
    let (_, whole) = p.run();
    for format in [ReportFormat::Text, ReportFormat::Json] {
        let options = Options {
            junit: Some("/dev/full".into()),
            format,
            ..p.options()
        };
        let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert_eq!(
            status,
            Status::Unwritten(
                "--junit /dev/full: cannot write the JUnit report: No space left on device (os error 28) (the report on stdout is whole)"
                    .into()
            )
        );
        assert_eq!(status.exit_code(), 2);
        match format {
            ReportFormat::Text => assert_eq!(out, whole),
            ReportFormat::Json => {
                let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(
                    (doc["passed"].as_u64(), doc["failed"].as_u64()),
                    (Some(9), Some(4))
                );
            }
        }
    }
}

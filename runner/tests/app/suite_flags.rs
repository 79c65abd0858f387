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

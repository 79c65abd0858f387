//! Usage errors (exit status 2), found before any file is checked: a
//! missing scenario directory, a bad `suite.yaml` or `REWRITE` value,
//! goldens and scenarios inside one another, a JUnit file in a missing
//! directory.

use runner::app::{Env, Status};
use runner::cli::Options;
use std::fs;

use crate::common::{fake, Built, Project, BASIC, BASIC_GOLDEN};

#[test]
fn usage_errors_exit_2() {
    let p = Project::new();
    let options = Options {
        scenarios: p.root.join("missing"),
        ..Options::default()
    };
    let (status, _) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status.exit_code(), 2);
    fs::write(p.root.join("testdata/suite.yaml"), "configurations: {}\n").unwrap();
    let (status, _) = p.run();
    assert!(
        matches!(&status, Status::Usage(m) if m.contains("suite.yaml")),
        "{status:?}"
    );
    let env = Env {
        rewrite: Some("maybe".into()),
        ci: None,
        isolation: None,
        ..Env::default()
    };
    let (status, _) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status.exit_code(), 2);
}

/// Goldens inside the scenario directory would be read as scenarios, and
/// `--goldens` equal to it let a rewrite overwrite the scenario files.
#[test]
fn goldens_and_scenarios_must_not_contain_one_another() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC);
    for goldens in [
        p.root.join("testdata"),
        p.root.join("testdata/goldens"),
        p.root.clone(),
    ] {
        let options = Options {
            goldens: Some(goldens.clone()),
            rewrite: true,
            ..p.options()
        };
        let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert!(
            matches!(&status, Status::Usage(m) if m.contains("must not contain one another")),
            "{goldens:?}: {status:?}"
        );
        assert_eq!(out, "");
    }
    assert_eq!(
        fs::read_to_string(p.root.join("testdata/a/basic.dd")).unwrap(),
        BASIC
    );
    assert!(!p.root.join("testdata/goldens").exists());
}

/// A JUnit file in a missing directory used to be found only once the
/// whole suite had run; now before any file is checked.
#[test]
fn a_junit_file_in_a_missing_directory_is_a_usage_error_up_front() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN);
    let built = Built::default();
    let options = Options {
        junit: Some(p.root.join("missing/junit.xml")),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, built.clone()));
    assert!(
        matches!(&status, Status::Usage(m) if m.contains("missing/junit.xml: no directory")),
        "{status:?}"
    );
    assert_eq!(out, "");
    assert!(built.0.lock().unwrap().is_empty(), "no engine was built");
}

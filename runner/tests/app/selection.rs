//! `--run`: a selection of runs replays just those, keeps the golden of
//! the directives it does not run, never writes a golden, and names a run
//! the suite cannot have as a usage error; a failure's `reproduce` line is
//! such a selection.

use engine::Config;
use runner::app::{Env, Status};
use runner::cli::Options;

use crate::common::{fake, Built, Project, SUITE};

#[test]
fn a_selection_keeps_the_golden_of_directives_it_does_not_run() {
    let p = Project::new();
    let scenario = "query configs=shared\nSELECT sharing\n----\n\nquery\nSELECT workers\n----\n";
    let golden =
        "query configs=shared\nSELECT sharing\n----\ntrue\n\nquery\nSELECT workers\n----\n1\n";
    p.scenario("c.dd", scenario).golden("c.dd", golden);
    // Only solo runs: the `configs=shared` directive is not run, and its
    // golden output stands (as in `cargo test`'s `c.dd::solo` trial).
    let options = Options {
        runs: vec!["solo/workers=1/round-robin".into()],
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status, Status::Passed, "{out}");
    // A rewrite needs every run (the skipped ones could diverge or fail
    // their witness): with --run it is refused, and the golden stands.
    let rewrite = Options {
        rewrite: true,
        ..options
    };
    let (status, out) = p.run_with(&rewrite, &Env::default(), &fake(false, Built::default()));
    assert!(
        matches!(&status, Status::Usage(m) if m.contains("drop --run")),
        "{status:?}"
    );
    assert_eq!(out, "");
    assert_eq!(p.read_golden("c.dd").unwrap(), golden, "not rewritten away");
}

/// With one run selected, --rewrite used to write the golden of a file
/// whose runs diverge across worker counts; the next full run failed.
#[test]
fn a_checker_with_a_selection_never_writes_a_golden() {
    use runner::assembly::Assembly;
    use runner::check::{Checker, Selection};
    use runner::suite::Suite;
    let p = Project::new();
    p.scenario("w.dd", "query\nSELECT workers\n----\n");
    let suite = Suite::parse("suite.yaml", SUITE).unwrap();
    let factory = fake(false, Built::default());
    let checker = Checker {
        suite: &suite,
        factory: &factory,
        rewrite: true,
        selection: Selection {
            configuration: None,
            runs: vec!["shared/workers=2/seed=7".into()],
        },
    };
    let (scenario, golden) = (p.root.join("testdata/w.dd"), p.root.join("goldens/w.dd"));
    let report = checker.check(&Assembly::spec(&scenario, &golden));
    assert!(!report.passed());
    assert_eq!(report.written, None);
    assert!(p.read_golden("w.dd").is_none());
}

#[test]
fn a_reproduce_command_replays_just_that_run() {
    let p = Project::new();
    p.scenario("w.dd", "query\nSELECT workers\n----\n")
        .golden("w.dd", "query\nSELECT workers\n----\n2\n");
    let built = Built::default();
    let options = Options {
        runs: vec!["shared/workers=2/seed=7".into()],
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, built.clone()));
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        *built.0.lock().unwrap(),
        [Config {
            sharing: true,
            workers: 2,
            seed: Some(7),
            joins: Default::default(),
        }]
    );
    // A run of the suite's shape that this file's matrix lacks fails the file.
    let options = Options {
        runs: vec!["shared/workers=5/seed=7".into()],
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status, Status::Failed);
    assert!(
        out.contains("none of its runs is selected (--run shared/workers=5/seed=7)"),
        "{out}"
    );
    // A name that cannot be a run of this suite is a usage error: it used
    // to fail every file instead.
    let options = Options {
        runs: vec!["turbo/workers=2/seed=7".into()],
        ..p.options()
    };
    let (status, _) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert!(
        matches!(&status, Status::Usage(m) if m.starts_with("--run turbo/workers=2/seed=7: suite.yaml defines no configuration `turbo`")),
        "{status:?}"
    );
}

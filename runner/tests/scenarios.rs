//! `cargo test` runs the conformance suite: one test per scenario file x
//! configuration of `testdata/`, named `tables/basic.dd::solo`, each replaying
//! every worker count and schedule of that configuration against the
//! reference engine and checking the golden. libtest-mimic makes them real
//! libtest tests: `cargo test -p runner --test scenarios -- slt/ --exact`,
//! `--list`, `--skip` and the closing `test result:` line all work.

use libtest_mimic::{Arguments, Failed, Trial};
use runner::assembly::Assembly;
use runner::check::{Checker, Selection};
use runner::cli::{self, Options};
use runner::suite::Suite;
use runner::{report, suite::discover, suite::matrix};
use std::path::Path;
use std::sync::Arc;

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the runner crate is in the workspace");
    let trials = trials(&root.join("testdata"), &root.join("goldens"))
        .unwrap_or_else(|message| vec![Trial::test("testdata", move || Err(message.into()))]);
    libtest_mimic::run(&args, trials).exit();
}

/// One trial per file x configuration, and one failing trial per golden
/// without a scenario.
fn trials(dir: &Path, goldens: &Path) -> Result<Vec<Trial>, String> {
    let assembly = Arc::new(Assembly::load(dir, None, Some(goldens), None)?);
    let mut trials = Vec::new();
    for rel in &assembly.scenarios {
        let name = discover::slash_path(rel);
        for configuration in
            configurations(&assembly.location.suite, &assembly.location.scenario(rel))
        {
            let assembly = Arc::clone(&assembly);
            let rel = rel.clone();
            let (name, trial_name) = (name.clone(), format!("{name}::{configuration}"));
            trials.push(Trial::test(trial_name.clone(), move || {
                check(&assembly, &rel, &name, &configuration, &trial_name)
            }));
        }
    }
    for rel in &assembly.orphans {
        let message = report::file(&assembly.orphan_report(rel));
        trials.push(Trial::test(discover::slash_path(rel), move || {
            Err(message.into())
        }));
    }
    Ok(trials)
}

/// The configurations `path` runs under; all of the suite's when the file
/// cannot be read (each of its trials then reports why).
fn configurations(suite: &Suite, path: &Path) -> Vec<String> {
    let all = || {
        suite
            .configurations
            .iter()
            .map(|c| c.name.clone())
            .collect()
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return all();
    };
    let shown = path.display().to_string();
    let Ok((_, runs)) = matrix::script_and_runs(path, &shown, suite, &text) else {
        return all();
    };
    let mut names: Vec<String> = Vec::new();
    for run in runs {
        if !names.contains(&run.configuration) {
            names.push(run.configuration);
        }
    }
    names
}

fn check(
    assembly: &Assembly,
    rel: &Path,
    name: &str,
    configuration: &str,
    trial: &str,
) -> Result<(), Failed> {
    let checker = Checker {
        suite: &assembly.location.suite,
        factory: &runner::run::target::engine,
        rewrite: false,
        selection: Selection {
            configuration: Some(configuration.to_string()),
            runs: Vec::new(),
        },
    };
    let (scenario, golden) = (
        assembly.location.scenario(rel),
        assembly.location.golden(rel),
    );
    let mut report = checker.check(&Assembly::spec(&scenario, &golden));
    if report.passed() {
        return Ok(());
    }
    let runs: Vec<String> = report.failing_runs.iter().map(|r| r.to_string()).collect();
    let options = Options {
        scenarios: "testdata".into(),
        ..Options::default()
    };
    report.reproduce = Some(format!(
        "{}\n(or: cargo test -p runner --test scenarios -- --exact {trial})",
        cli::reproduce(&options, name, &runs)
    ));
    Err(report::file(&report).into())
}

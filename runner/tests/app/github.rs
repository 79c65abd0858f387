//! The report of a failing suite, pinned: `runner/tests/github/` holds a
//! suite whose every file fails in its own way on purpose (a golden diff in
//! each format, a divergence, a witness failure, a panic, a malformed file,
//! a missing golden, a golden without a scenario), replayed on a stand-in
//! engine that makes those failures, and the reports it must give, checked
//! in under `expected/` and read as claims.

use crate::common::{fake, Built, Project};
use engine::repr::Datum;
use engine::{Config, Outcome, Witness};
use runner::app::{self, Env, Status};
use runner::cli::Options;
use runner::format::directive::Command;
use runner::run::target::Target;
use std::path::Path;

/// A stand-in engine whose answers make each failure on purpose:
/// - `SELECT sharing`: one row, whether sharing is on (solo and shared diverge);
/// - `SELECT panic`: panics;
/// - `SELECT lie`: one row `1`, and from then on the run's witness claims
///   every read was served locally (false under sharing);
/// - `SELECT text`: one row of text holding a backtick and a pipe;
/// - any other query: one row `1`; anything else: `ok`.
struct Standin {
    sharing: bool,
    reads: u64,
    lie: bool,
}

impl Target for Standin {
    fn execute(&mut self, command: &Command) -> Outcome {
        let Command::Query { sql, .. } = command else {
            return Outcome::Ok;
        };
        self.reads += 1;
        let one = |datum| Outcome::Rows(vec![vec![datum]]);
        match sql.as_str() {
            "SELECT sharing" => one(Datum::Bool(self.sharing)),
            "SELECT panic" => panic!("the stand-in panics on purpose"),
            "SELECT text" => one(Datum::Text("`x` | y".into())),
            "SELECT lie" => {
                self.lie = true;
                one(Datum::Int64(1))
            }
            _ => one(Datum::Int64(1)),
        }
    }

    fn witness(&self) -> Witness {
        let shared = self.sharing && !self.lie;
        Witness {
            shared_reads: if shared { self.reads } else { 0 },
            local_reads: if shared { 0 } else { self.reads },
            published: u64::from(self.sharing),
            stale_slots: Some(vec![]),
            ..Witness::default()
        }
    }
}

fn standin(config: &Config) -> Box<dyn Target> {
    Box::new(Standin {
        sharing: config.sharing,
        reads: 0,
        lie: false,
    })
}

/// The failing suite, relative to the runner's crate (the tests' working
/// directory), so that its paths print the same everywhere.
const SUITE: &str = "tests/github/testdata";

fn expected(name: &str) -> String {
    let path = Path::new("tests/github/expected").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` with the panic's source location (which moves whenever this
/// file is edited) replaced by `LOCATION`.
fn located(text: &str) -> String {
    const AT: &str = "(at runner/tests/app/github.rs:";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(AT) {
        out.push_str(&rest[..i]);
        out.push_str("(at LOCATION)");
        let after = &rest[i..];
        rest = &after[after.find(')').map_or(after.len(), |j| j + 1)..];
    }
    out + rest
}

/// Checks the failing suite with `options` and `env`: the status and stdout.
fn run(options: &Options, env: &Env) -> (Status, String) {
    let mut out = Vec::new();
    let status = app::run(options, env, &standin, &mut out);
    (status, located(&String::from_utf8(out).unwrap()))
}

fn options() -> Options {
    Options {
        scenarios: SUITE.into(),
        ..Options::default()
    }
}

/// Outside GitHub Actions the report is the one the runner always printed
/// (`expected/local.txt` was written by the runner before it knew of
/// GitHub, at 4491b48).
#[test]
fn a_local_run_prints_the_report_it_always_printed() {
    let (status, out) = run(&options(), &Env::default());
    assert_eq!(status, Status::Failed);
    assert_eq!(out, expected("local.txt"));
}

/// A golden diff at a directive that only some configurations run is
/// reproduced by a run of one of them: the reproduce line once named the
/// first run of the file, whose configuration skips the directive, so the
/// command it printed passed.
#[test]
fn a_golden_diff_is_reproduced_by_a_run_that_ran_its_directive() {
    let p = Project::new();
    let scenario =
        "statement\nCREATE TABLE t (a int)\n----\n\nquery configs=shared\nSELECT rows\n----\n";
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n\nquery configs=shared\nSELECT rows\n----\n9 z\n";
    p.scenario("narrow.dd", scenario)
        .golden("narrow.dd", golden);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed, "{out}");
    let reproduce = "--filter narrow.dd --run shared/workers=1/round-robin\n";
    assert!(out.contains(reproduce), "{out}");
    let only = |run: &str| Options {
        runs: vec![run.to_string()],
        ..p.options()
    };
    let factory = fake(false, Built::default());
    let (status, out) = p.run_with(
        &only("shared/workers=1/round-robin"),
        &Env::default(),
        &factory,
    );
    assert_eq!(
        status,
        Status::Failed,
        "the reproduce line reproduces it:\n{out}"
    );
    let (status, _) = p.run_with(
        &only("solo/workers=1/round-robin"),
        &Env::default(),
        &factory,
    );
    assert_eq!(status, Status::Passed, "solo skips the directive");
}

//! End-to-end tests of the runner on temporary suites, driving a scripted
//! stand-in for the engine (the reference engine is not needed to test the
//! runner's own rules).

use engine::repr::Datum;
use engine::{Config, Outcome, Witness};
use runner::app::{self, Env, Status};
use runner::cli::{Options, ReportFormat};
use runner::format::directive::Command;
use runner::run::target::{Factory, Target};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A stand-in engine. Queries are scripted by their SQL text:
/// - `SELECT rows`: rows 2, 1, NULL (in that order);
/// - `SELECT workers`: one row, the worker count (so runs diverge by workers);
/// - `SELECT sharing`: one row, whether sharing is on (diverges by configuration);
/// - `SELECT panic`: panics;
/// - `SELECT blank`: a row whose only column is empty text;
/// - `SELECT dashes`: a row whose only column is `----`;
/// - anything else: no rows.
///
/// Its witness is honest unless `lie` is set.
struct Fake {
    config: Config,
    reads: u64,
    lie: bool,
}

impl Target for Fake {
    fn execute(&mut self, command: &Command) -> Outcome {
        match command {
            Command::Statement { sql } if sql.contains("fail") => Outcome::Error("boom".into()),
            Command::Statement { .. } | Command::Tick | Command::Hold { .. } => Outcome::Ok,
            Command::Query { sql, .. } => {
                self.reads += 1;
                match sql.as_str() {
                    "SELECT rows" => Outcome::Rows(vec![
                        vec![Datum::Int64(2), Datum::Text("b".into())],
                        vec![Datum::Int64(1), Datum::Text("a".into())],
                        vec![Datum::Null, Datum::Null],
                    ]),
                    "SELECT workers" => {
                        Outcome::Rows(vec![vec![Datum::Int64(self.config.workers as i64)]])
                    }
                    "SELECT sharing" => Outcome::Rows(vec![vec![Datum::Bool(self.config.sharing)]]),
                    "SELECT panic" => panic!("engine exploded in {:?}", self.config),
                    "SELECT blank" => Outcome::Rows(vec![vec![Datum::Text(String::new())]]),
                    "SELECT dashes" => Outcome::Rows(vec![vec![Datum::Text("----".into())]]),
                    _ => Outcome::Rows(vec![]),
                }
            }
            Command::IssuePeek { .. } => Outcome::Issued,
            Command::Await { .. } => Outcome::Pending("worker 0 is paused".into()),
            _ => Outcome::Error("unsupported".into()),
        }
    }

    fn witness(&self) -> Witness {
        let honest = if self.config.sharing {
            Witness {
                shared_reads: self.reads,
                local_reads: 0,
                published: 1,
                logging_reads: 0,
                constant_reads: 0,
                stale_slots: Some(vec![]),
                points_astray: 0,
                unused_dataflows: 0,
            }
        } else {
            Witness {
                shared_reads: 0,
                local_reads: self.reads,
                published: 0,
                logging_reads: 0,
                constant_reads: 0,
                stale_slots: Some(vec![]),
                points_astray: 0,
                unused_dataflows: 0,
            }
        };
        if self.lie {
            Witness {
                shared_reads: 0,
                local_reads: self.reads,
                published: 0,
                logging_reads: 0,
                constant_reads: 0,
                stale_slots: Some(vec![]),
                points_astray: 0,
                unused_dataflows: 0,
            }
        } else {
            honest
        }
    }
}

/// The configs every fake was built with, in order.
#[derive(Clone, Default)]
struct Built(Arc<Mutex<Vec<Config>>>);

fn fake(lie: bool, built: Built) -> impl Fn(&Config) -> Box<dyn Target> {
    move |config: &Config| {
        built.0.lock().unwrap().push(config.clone());
        Box::new(Fake {
            config: config.clone(),
            reads: 0,
            lie,
        }) as Box<dyn Target>
    }
}

const SUITE: &str = "configurations:\n  solo: {sharing: false}\n  shared: {sharing: true}\nworkers: [1, 2]\nschedules: [round-robin, 7]\n";

/// A project directory: `testdata/` (with suite.yaml) and `goldens/`.
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        fs::create_dir_all(root.join("testdata")).unwrap();
        fs::create_dir_all(root.join("goldens")).unwrap();
        fs::write(root.join("testdata/suite.yaml"), SUITE).unwrap();
        Project { _dir: dir, root }
    }

    fn scenario(&self, rel: &str, text: &str) -> &Self {
        write(&self.root.join("testdata").join(rel), text);
        self
    }

    fn golden(&self, rel: &str, text: &str) -> &Self {
        write(&self.root.join("goldens").join(rel), text);
        self
    }

    fn read_golden(&self, rel: &str) -> Option<String> {
        fs::read_to_string(self.root.join("goldens").join(rel)).ok()
    }

    fn options(&self) -> Options {
        Options {
            scenarios: self.root.join("testdata"),
            ..Options::default()
        }
    }

    /// Runs the suite; returns the status and the printed report, with the
    /// temporary root replaced by `ROOT`.
    fn run_with(&self, options: &Options, env: &Env, factory: &Factory) -> (Status, String) {
        let mut out = Vec::new();
        let status = app::run(options, env, factory, &mut out);
        let text = String::from_utf8(out).unwrap();
        (status, text.replace(self.root.to_str().unwrap(), "ROOT"))
    }

    fn run(&self) -> (Status, String) {
        self.run_with(
            &self.options(),
            &Env::default(),
            &fake(false, Built::default()),
        )
    }

    fn rewrite(&self) -> (Status, String) {
        let options = Options {
            rewrite: true,
            ..self.options()
        };
        self.run_with(&options, &Env::default(), &fake(false, Built::default()))
    }
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn last_line(report: &str) -> &str {
    report.lines().last().unwrap()
}

const BASIC: &str = "# A scenario.\n\nstatement\nCREATE TABLE t (a int)\n----\n\nquery\nSELECT rows\n----\n\nquery nosort\nSELECT rows\n----\n\nquery\nSELECT nothing\n----\n";
const BASIC_GOLDEN: &str = "# A scenario.\n\nstatement\nCREATE TABLE t (a int)\n----\nok\n\nquery\nSELECT rows\n----\nNULL NULL\n1 a\n2 b\n\nquery nosort\nSELECT rows\n----\n2 b\n1 a\nNULL NULL\n\nquery\nSELECT nothing\n----\n";

#[test]
fn passing_file() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN);
    let (status, out) = p.run();
    assert_eq!(out, "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
    assert_eq!(status.exit_code(), 0);
}

/// An editor's lock file (`.#name.dd`, a dangling link) and a link loop in
/// either tree used to abort the whole suite before anything ran.
#[cfg(unix)]
#[test]
fn links_that_lead_nowhere_are_skipped_with_a_warning() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN);
    symlink("user@host.1234", p.root.join("testdata/a/.#basic.dd")).unwrap();
    symlink("..", p.root.join("goldens/a/loop")).unwrap();
    let json = Options {
        format: ReportFormat::Json,
        ..p.options()
    };
    let (_, out) = p.run_with(&json, &Env::default(), &fake(false, Built::default()));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["warnings"][0],
        "skipped ROOT/testdata/a/.#basic.dd: an editor's lock file"
    );
    let (status, out) = p.run();
    assert_eq!(
        out,
        "warning: skipped ROOT/testdata/a/.#basic.dd: an editor's lock file\n\
         warning: skipped ROOT/goldens/a/loop: a symbolic link loop\n\
         PASS ROOT/testdata/a/basic.dd\n\
         1 passed, 0 failed\n"
    );
    assert_eq!(status, Status::Passed);
}

#[test]
fn every_run_of_the_matrix_gets_a_fresh_engine() {
    let p = Project::new();
    p.scenario("a.dd", "tick\n----\n")
        .golden("a.dd", "tick\n----\nok\n");
    p.scenario(
        "b.dd",
        "# configs: shared\n# workers: 3\n# seeds: 9, round-robin\n\ntick\n----\n",
    )
    .golden(
        "b.dd",
        "# configs: shared\n# workers: 3\n# seeds: 9, round-robin\n\ntick\n----\nok\n",
    );
    let built = Built::default();
    let (status, out) = p.run_with(&p.options(), &Env::default(), &fake(false, built.clone()));
    assert_eq!(status, Status::Passed, "{out}");
    let configs = built.0.lock().unwrap().clone();
    let c = |sharing, workers, seed| Config {
        sharing,
        workers,
        seed,
        joins: Default::default(),
    };
    assert_eq!(
        configs,
        [
            c(false, 1, None),
            c(false, 1, Some(7)),
            c(false, 2, None),
            c(false, 2, Some(7)),
            c(true, 1, None),
            c(true, 1, Some(7)),
            c(true, 2, None),
            c(true, 2, Some(7)),
            c(true, 3, Some(9)),
            c(true, 3, None),
        ]
    );
}

#[test]
fn golden_mismatch_shows_an_annotated_diff() {
    let p = Project::new();
    let stale = BASIC_GOLDEN.replace("1 a\n2 b\n\nquery nosort", "1 a\n2 c\n\nquery nosort");
    p.scenario("basic.dd", BASIC).golden("basic.dd", &stale);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    let expected = "\
FAIL ROOT/testdata/basic.dd: transcript differs from ROOT/goldens/basic.dd
    --- ROOT/goldens/basic.dd (golden)
    +++ ROOT/testdata/basic.dd (replayed)
    @@ -10,7 +10,7 @@ ROOT/testdata/basic.dd:7: query
     ----
     NULL NULL
     1 a
    -2 c
    +2 b
     
     query nosort
     SELECT rows
    reproduce: cargo run -p runner -- ROOT/testdata --filter basic.dd --run solo/workers=1/round-robin
0 passed, 1 failed
";
    assert_eq!(out, expected);
    // Not rewritten without --rewrite.
    assert_eq!(p.read_golden("basic.dd").unwrap(), stale);
}

#[test]
fn rewrite_creates_and_updates_goldens_and_leaves_equal_ones_alone() {
    let p = Project::new();
    p.scenario("new.dd", BASIC)
        .scenario("stale.dd", BASIC)
        .golden("stale.dd", "old\n")
        .scenario("same.dd", BASIC)
        .golden("same.dd", BASIC_GOLDEN);
    let same = p.root.join("goldens/same.dd");
    let before = fs::metadata(&same).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        out,
        "PASS ROOT/testdata/new.dd (wrote ROOT/goldens/new.dd)\n\
         PASS ROOT/testdata/same.dd\n\
         PASS ROOT/testdata/stale.dd (wrote ROOT/goldens/stale.dd)\n\
         rewrite: wrote 2 golden(s): ROOT/goldens/new.dd, ROOT/goldens/stale.dd\n\
         3 passed, 0 failed\n"
    );
    assert_eq!(p.read_golden("new.dd").unwrap(), BASIC_GOLDEN);
    assert_eq!(p.read_golden("stale.dd").unwrap(), BASIC_GOLDEN);
    assert_eq!(fs::metadata(&same).unwrap().modified().unwrap(), before);
    // No temporary files left in the goldens directory.
    let mut names: Vec<String> = fs::read_dir(p.root.join("goldens"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["new.dd", "same.dd", "stale.dd"]);
    // Now everything passes without rewriting.
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed, "{out}");
    // REWRITE=1 is the same as --rewrite.
    p.golden("same.dd", "changed\n");
    let env = Env {
        rewrite: Some("1".into()),
        ci: None,
        isolation: None,
    };
    let (status, out) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status, Status::Passed, "{out}");
    assert!(
        out.contains("rewrite: wrote 1 golden(s): ROOT/goldens/same.dd\n"),
        "{out}"
    );
    assert_eq!(p.read_golden("same.dd").unwrap(), BASIC_GOLDEN);
}

#[test]
fn rewrite_is_refused_under_ci() {
    let p = Project::new();
    p.scenario("new.dd", BASIC);
    for (flag, rewrite_env) in [(true, None), (false, Some("1".to_string()))] {
        let options = Options {
            rewrite: flag,
            ..p.options()
        };
        let env = Env {
            rewrite: rewrite_env,
            ci: Some("true".into()),
            isolation: None,
        };
        let (status, out) = p.run_with(&options, &env, &fake(false, Built::default()));
        assert_eq!(status.exit_code(), 2);
        assert!(
            matches!(&status, Status::Usage(m) if m.contains("refusing to rewrite goldens under CI=true")),
            "{status:?}"
        );
        assert_eq!(out, "", "nothing runs");
        assert_eq!(p.read_golden("new.dd"), None);
    }
    // Checking under CI is fine.
    let env = Env {
        rewrite: None,
        ci: Some("true".into()),
        isolation: None,
    };
    let (status, _) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status, Status::Failed);
}

#[test]
fn missing_and_orphan_goldens_are_both_errors() {
    let p = Project::new();
    p.scenario("here.dd", BASIC)
        .golden("gone.dd", "tick\n----\nok\n");
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    assert_eq!(
        out,
        "FAIL ROOT/testdata/here.dd: no golden at ROOT/goldens/here.dd (a new scenario gets one with REWRITE=1)\n\
         \x20   reproduce: cargo run -p runner -- ROOT/testdata --filter here.dd --run solo/workers=1/round-robin\n\
         FAIL ROOT/goldens/gone.dd: golden without a scenario (no ROOT/testdata/gone.dd; delete the golden or restore the scenario)\n\
         0 passed, 2 failed\n"
    );
    // Rewrite creates the missing one but neither deletes nor accepts the orphan.
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("PASS ROOT/testdata/here.dd (wrote ROOT/goldens/here.dd)\nFAIL ROOT/goldens/gone.dd: golden without a scenario"), "{out}");
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    assert!(p.read_golden("gone.dd").is_some());
}

#[test]
fn divergence_is_reported_before_the_golden_and_blocks_rewrite() {
    let p = Project::new();
    let scenario = "tick\n----\n\nquery\nSELECT sharing\n----\n\nquery\nSELECT workers\n----\n";
    p.scenario("split.dd", scenario)
        .golden("split.dd", "stale\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "FAIL ROOT/testdata/split.dd: runs diverged at ROOT/testdata/split.dd:4 (solo/workers=1/round-robin vs shared/workers=1/round-robin); transcript differs from ROOT/goldens/split.dd (not rewritten: the file has other failures)"
    );
    assert!(out.contains("    first difference at ROOT/testdata/split.dd:4: query; 2 directive(s) differ, at line(s) 4, 8\n"), "{out}");
    assert!(out.contains("    group 1 (4 run(s)): solo/workers=1/round-robin, solo/workers=1/seed=7, solo/workers=2/round-robin, solo/workers=2/seed=7\n"), "{out}");
    assert!(out.contains("    group 2 (4 run(s)): shared/workers=1/round-robin, shared/workers=1/seed=7, shared/workers=2/round-robin, shared/workers=2/seed=7\n"), "{out}");
    assert!(out.contains("    --- solo/workers=1/round-robin\n    +++ shared/workers=1/round-robin\n    @@ -5,7 +5,7 @@ ROOT/testdata/split.dd:4: query\n"), "{out}");
    assert!(out.contains("    -false\n    +true\n"), "{out}");
    // The divergence comes before the golden diff.
    let div = out.find("first difference").unwrap();
    let gold = out.find("(golden)").unwrap();
    assert!(div < gold, "{out}");
    assert_eq!(p.read_golden("split.dd").unwrap(), "stale\n");
    assert_eq!(last_line(&out), "0 passed, 1 failed");
}

#[test]
fn divergence_names_the_group_that_matches_the_golden() {
    let p = Project::new();
    let scenario = "query\nSELECT workers\n----\n";
    p.scenario("w.dd", scenario)
        .golden("w.dd", "query\nSELECT workers\n----\n2\n");
    let (_, out) = p.run();
    assert!(out.contains("    group 2 (4 run(s), matches the golden): solo/workers=2/round-robin, solo/workers=2/seed=7, shared/workers=2/round-robin, shared/workers=2/seed=7\n"), "{out}");
}

#[test]
fn a_panic_fails_only_its_file() {
    let p = Project::new();
    p.scenario("a_panics.dd", "tick\n----\n\nquery\nSELECT panic\n----\n")
        .scenario("b_fine.dd", "tick\n----\n")
        .golden("b_fine.dd", "tick\n----\nok\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "FAIL ROOT/testdata/a_panics.dd: engine panicked under solo/workers=1/round-robin; no golden at ROOT/goldens/a_panics.dd (not created: the file has other failures)"
    );
    assert_eq!(
        lines.next().unwrap(),
        "    at ROOT/testdata/a_panics.dd:4: query"
    );
    let panic_line = lines.next().unwrap();
    assert!(
        panic_line.starts_with(
            "    panic: engine exploded in Config { sharing: false, workers: 1, seed: None, joins: Linear } (at "
        ),
        "{panic_line}"
    );
    // The failure names the run that panicked and how to replay just that run.
    assert_eq!(
        lines.next().unwrap(),
        "    reproduce: cargo run -p runner -- ROOT/testdata --filter a_panics.dd --run solo/workers=1/round-robin"
    );
    assert_eq!(lines.next().unwrap(), "PASS ROOT/testdata/b_fine.dd");
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    assert_eq!(p.read_golden("a_panics.dd"), None);
}

#[test]
fn a_failed_witness_names_the_configuration_and_blocks_rewrite() {
    let p = Project::new();
    p.scenario("w.dd", BASIC);
    let options = Options {
        rewrite: true,
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(true, Built::default()));
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("FAIL ROOT/testdata/w.dd: witness failed under shared (4 of 8 runs); no golden at ROOT/goldens/w.dd (not created: the file has other failures)\n"), "{out}");
    assert!(out.contains("    shared/workers=1/round-robin: sharing is on and 3 directive(s) returned rows of tables, views or indexes, but not every read was served through a shared import (shared_reads=0, local_reads=3, published=0, logging_reads=0, constant_reads=0; expected shared_reads > 0 and local_reads = 0)\n"), "{out}");
    assert_eq!(p.read_golden("w.dd"), None);
}

#[test]
fn a_malformed_file_fails_alone() {
    let p = Project::new();
    p.scenario("bad.dd", "tick\n----\n\npeek as-of=3\n----\n")
        .scenario("bad_header.dd", "# workers: 1\n# seedz: 2\ntick\n----\n")
        .scenario("good.dd", "tick\n----\n")
        .golden("good.dd", "tick\n----\nok\n")
        .golden("bad.dd", "whatever\n");
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "FAIL ROOT/testdata/bad.dd: ROOT/testdata/bad.dd:4: `peek` requires argument `index=<index>`");
    // No run started: the whole file is the reproduction.
    assert_eq!(
        lines[1],
        "    reproduce: cargo run -p runner -- ROOT/testdata --filter bad.dd"
    );
    assert!(lines[2].starts_with("FAIL ROOT/testdata/bad_header.dd: ROOT/testdata/bad_header.dd:2: unknown header key `seedz`"), "{out}");
    assert!(
        lines[2].ends_with(
            "; no golden at ROOT/goldens/bad_header.dd (a new scenario gets one with REWRITE=1)"
        ),
        "{out}"
    );
    assert_eq!(lines[4], "PASS ROOT/testdata/good.dd");
    assert_eq!(lines[5], "1 passed, 2 failed");
}

#[test]
fn configs_skip_directives_and_blank_lines_use_the_doubled_form() {
    let p = Project::new();
    let scenario = "statement configs=(solo)\nCREATE fail\n----\n\nquery configs=shared\nSELECT sharing\n----\n\nquery\nSELECT blank\n----\n";
    p.scenario("c.dd", scenario);
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("c.dd").unwrap(),
        "statement configs=(solo)\nCREATE fail\n----\nerror: boom\n\nquery configs=shared\nSELECT sharing\n----\ntrue\n\nquery\nSELECT blank\n----\n----\n\n----\n----\n"
    );
    // The golden, given as a scenario, replays to itself.
    let q = Project::new();
    q.scenario("c.dd", &p.read_golden("c.dd").unwrap())
        .golden("c.dd", &p.read_golden("c.dd").unwrap());
    let (status, out) = q.run();
    assert_eq!(status, Status::Passed, "{out}");
}

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
fn peeks_and_pending() {
    let p = Project::new();
    p.scenario("p.dd", "peek index=i name=p\n----\n\nawait name=p\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("p.dd").unwrap(),
        "peek index=i name=p\n----\nissued\n\nawait name=p\n----\npending: worker 0 is paused\n"
    );
}

#[test]
fn filter_and_goldens_dir() {
    let p = Project::new();
    p.scenario("x/one.dd", "tick\n----\n")
        .scenario("y/two.dd", "tick\n----\n")
        .golden("x/one.dd", "tick\n----\nok\n");
    let options = Options {
        filter: Some("x/".into()),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(out, "PASS ROOT/testdata/x/one.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);

    let options = Options {
        filter: Some("nothing-matches".into()),
        ..p.options()
    };
    let (status, _) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status.exit_code(), 2);

    let other = p.root.join("elsewhere");
    write(&other.join("y/two.dd"), "tick\n----\nok\n");
    let options = Options {
        filter: Some("two".into()),
        goldens: Some(other),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(out, "PASS ROOT/testdata/y/two.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
}

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
    };
    let (status, _) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status.exit_code(), 2);
}

#[test]
fn unknown_configuration_in_configs_is_a_file_error() {
    let p = Project::new();
    p.scenario("u.dd", "\ntick configs=(solo,turbo)\n----\n");
    let (_, out) = p.run();
    assert!(out.starts_with("FAIL ROOT/testdata/u.dd: ROOT/testdata/u.dd:2: `configs=` names `turbo`, which suite.yaml does not define (it defines: solo, shared)"), "{out}");
}

const SLT: &str = "\
# A sqllogictest scenario.

statement ok
CREATE TABLE t (a int)

statement error boom
CREATE fail

statement error
CREATE fail

query IT rowsort
SELECT rows
----

query IT nosort
SELECT rows
----

query T valuesort
SELECT rows
----

skipif shared
query B
SELECT sharing
----

onlyif shared
query B
SELECT sharing
----

onlyif postgres
query I
SELECT anything
----

query T
SELECT blank
----

hash-threshold 3

query IT rowsort
SELECT rows
----

query I
SELECT nothing
----
";

const SLT_GOLDEN: &str = "\
# A sqllogictest scenario.

statement ok
CREATE TABLE t (a int)

statement error boom
CREATE fail

statement error
CREATE fail

query IT rowsort
SELECT rows
----
1 a
2 b
NULL NULL

query IT nosort
SELECT rows
----
2 b
1 a
NULL NULL

query IT valuesort
SELECT rows
----
1
2
NULL
NULL
a
b

skipif shared
query B
SELECT sharing
----
false

onlyif shared
query B
SELECT sharing
----
true

onlyif postgres
query I
SELECT anything
----

query T
SELECT blank
----
(empty)

hash-threshold 3

query IT rowsort
SELECT rows
----
6 values hashing to 7ed3d5e4e8ea8fd6a5c8b2c8de5e0b2b

query I
SELECT nothing
----
";

/// The golden above with the real md5 of its hashed result.
fn slt_golden() -> String {
    use md5::{Digest, Md5};
    let hash = format!("{:x}", Md5::digest(b"1\na\n2\nb\nNULL\nNULL\n"));
    SLT_GOLDEN.replace("7ed3d5e4e8ea8fd6a5c8b2c8de5e0b2b", &hash)
}

#[test]
fn slt_files_are_completed_like_the_crate_completes_them() {
    let p = Project::new();
    p.scenario("s/a.slt", SLT);
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(p.read_golden("s/a.slt").unwrap(), slt_golden());
    // The golden replays to itself, byte for byte, and passes.
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed, "{out}");
    let q = Project::new();
    q.scenario("a.slt", &slt_golden())
        .golden("a.slt", &slt_golden());
    let (status, out) = q.run();
    assert_eq!(status, Status::Passed, "{out}");
}

#[test]
fn slt_mismatches_show_in_the_golden_diff() {
    let p = Project::new();
    let wrong = slt_golden()
        .replace("statement error boom\n", "statement error bang\n")
        .replace(
            "1 a\n2 b\nNULL NULL\n\nquery IT nosort",
            "1 a\n2 x\nNULL NULL\n\nquery IT nosort",
        );
    p.scenario("a.slt", &wrong).golden("a.slt", &wrong);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    assert!(
        out.contains("FAIL ROOT/testdata/a.slt: transcript differs from ROOT/goldens/a.slt\n"),
        "{out}"
    );
    assert!(
        out.contains("    -statement error bang\n    +statement error boom\n"),
        "{out}"
    );
    assert!(out.contains("    -2 x\n    +2 b\n"), "{out}");
    assert!(
        out.contains("@@ -3,7 +3,7 @@ ROOT/testdata/a.slt:6: statement error bang"),
        "{out}"
    );
    // A wrong type string is corrected to the result's types.
    let p = Project::new();
    p.scenario("t.slt", "query I\nSELECT rows\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("t.slt").unwrap(),
        "query IT\nSELECT rows\n----\n2 b\n1 a\nNULL NULL\n"
    );
}

#[test]
fn slt_divergence_and_labels() {
    let p = Project::new();
    p.scenario("d.slt", "query B\nSELECT sharing\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("FAIL ROOT/testdata/d.slt: runs diverged at ROOT/testdata/d.slt:1 (solo/workers=1/round-robin vs shared/workers=1/round-robin)"), "{out}");
    assert!(out.contains("    -false\n    +true\n"), "{out}");
    assert!(out.contains("    reproduce: cargo run -p runner -- ROOT/testdata --filter d.slt --run solo/workers=1/round-robin --run shared/workers=1/round-robin\n"), "{out}");
    // A record conditioned on configurations only must run under one of the file's.
    let p = Project::new();
    p.scenario(
        "n.slt",
        "# configs: solo\n\nonlyif shared\nstatement ok\nCREATE TABLE t (a int)\n",
    );
    let (_, out) = p.run();
    assert!(out.starts_with("FAIL ROOT/testdata/n.slt: ROOT/testdata/n.slt:4: this directive runs under none of the file's configurations"), "{out}");
}

#[test]
fn slt_includes_run_in_place_and_must_hold() {
    let p = Project::new();
    p.scenario("inc/setup.slt.inc", "statement ok\nCREATE TABLE t (a int)\n\nquery IT rowsort\nSELECT rows\n----\n1 a\n2 b\nNULL NULL\n");
    p.scenario(
        "inc/main.slt",
        "include setup.slt.inc\n\nquery I\nSELECT workers\n----\n",
    );
    let built = Built::default();
    let options = Options {
        rewrite: true,
        filter: Some("main".into()),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, built.clone()));
    // Runs diverge on the worker count; the included records ran first.
    assert_eq!(status, Status::Failed, "{out}");
    assert!(
        out.contains("runs diverged at ROOT/testdata/inc/main.slt:3"),
        "{out}"
    );
    // An included record whose output differs from what its file says fails the file.
    p.scenario("inc/setup.slt.inc", "statement ok\nCREATE fail\n");
    p.scenario("inc/main.slt", "include setup.slt.inc\n");
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status, Status::Failed, "{out}");
    assert!(out.contains("1 included record(s) do not hold"), "{out}");
    assert!(out.contains("    ROOT/testdata/inc/setup.slt.inc:1: `statement ok` does not hold (its output would make it `statement error boom`)"), "{out}");
    // A missing include is a file error with its line.
    p.scenario("inc/main.slt", "\ninclude nothing-here.inc\n");
    let (_, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert!(out.starts_with("FAIL ROOT/testdata/inc/main.slt: ROOT/testdata/inc/main.slt:2: include `nothing-here.inc` matches no file"), "{out}");
}

#[test]
fn slt_records_the_engine_cannot_honour_are_errors() {
    let p = Project::new();
    for (name, text, expected) in [
        (
            "count.slt",
            "\nstatement count 1\nINSERT INTO t VALUES (1)\n",
            "count.slt:2: `statement count` is not supported",
        ),
        (
            "system.slt",
            "system ok\necho hi\n",
            "system.slt:1: `system` is not supported",
        ),
        (
            "control.slt",
            "# c\ncontrol resultmode valuewise\n",
            "control.slt:2: `control` is not supported",
        ),
        (
            "types.slt",
            "query\nSELECT 1\n----\n",
            "types.slt:1: `query` needs a type string",
        ),
        (
            "bad.slt",
            "query X\nSELECT 1\n----\n",
            "bad.slt:1: invalid type character: 'X' in type string",
        ),
    ] {
        p.scenario(name, text);
        let options = Options {
            filter: Some(name.into()),
            ..p.options()
        };
        let (_, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert!(
            out.starts_with(&format!(
                "FAIL ROOT/testdata/{name}: ROOT/testdata/{expected}"
            )),
            "{out}"
        );
    }
}

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

/// A row `----` as the last line of an output would close the doubled
/// block early: the golden written used to be unparsable. Now the file fails
/// with the directive's line, and rewrite writes nothing.
#[test]
fn an_output_the_format_cannot_hold_fails_the_file_and_is_not_written() {
    let p = Project::new();
    p.scenario("d.dd", "tick\n----\n\nquery\nSELECT dashes\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert_eq!(
        out,
        "FAIL ROOT/testdata/d.dd: 1 output(s) cannot be written in the datadriven format; no golden at ROOT/goldens/d.dd (not created: the file has other failures)\n\
         \x20   ROOT/testdata/d.dd:4: the output has a `----` line last or two in a row, which would end its block early\n\
         \x20   reproduce: cargo run -p runner -- ROOT/testdata --filter d.dd --run solo/workers=1/round-robin\n\
         rewrite: no golden changed\n\
         0 passed, 1 failed\n"
    );
    assert!(p.read_golden("d.dd").is_none());
}

/// A checkout with `core.autocrlf` turns both files into CRLF: the file used
/// to fail on invisible differences, and rewrite wrote mixed line endings.
#[test]
fn crlf_files_are_read_as_lf_and_goldens_written_with_lf() {
    let crlf = |s: &str| s.replace('\n', "\r\n");
    let p = Project::new();
    p.scenario("a/basic.dd", &crlf(BASIC))
        .golden("a/basic.dd", &crlf(BASIC_GOLDEN));
    let (status, out) = p.run();
    assert_eq!(out, "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
    // A new CRLF scenario gets an LF golden, which it then passes against.
    p.scenario("a/new.dd", &crlf(BASIC));
    let (status, _) = p.rewrite();
    assert_eq!(status, Status::Passed);
    assert_eq!(p.read_golden("a/new.dd").as_deref(), Some(BASIC_GOLDEN));
    assert_eq!(p.run().0, Status::Passed);
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

/// A rewrite killed between writing its temporary file and renaming it left
/// the hidden file beside the goldens, never reported (`git add goldens/`
/// picked it up). Now a check names it and a rewrite removes it.
#[test]
fn temporary_files_of_an_interrupted_rewrite_are_reported_and_removed() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN)
        .golden("a/.basic.dd.4242.0.tmp", "# A scen");
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed);
    assert_eq!(
        out,
        "warning: ROOT/goldens/a/.basic.dd.4242.0.tmp is a temporary file of an interrupted rewrite; --rewrite removes it\n\
         PASS ROOT/testdata/a/basic.dd\n\
         1 passed, 0 failed\n"
    );
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed);
    assert!(
        out.starts_with("warning: removed ROOT/goldens/a/.basic.dd.4242.0.tmp: a temporary file of an interrupted rewrite\n"),
        "{out}"
    );
    assert!(p.read_golden("a/.basic.dd.4242.0.tmp").is_none());
    assert_eq!(
        p.run().1,
        "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n"
    );
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

/// The `runner` binary with `args`: exit code, stdout, stderr.
fn runner_binary(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Each file is checked in a child process of the binary: a child that
/// aborts (a stack overflow once killed the whole suite, with no summary)
/// or hangs fails its own file, named, and every other file, the summary,
/// the JSON report and the JUnit file still come out.
#[cfg(unix)]
#[test]
fn a_child_that_aborts_or_hangs_fails_only_its_file() {
    let p = Project::new();
    let scenario = "statement\nCREATE TABLE t (a int)\n----\n";
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n";
    for name in ["aborts.dd", "fine.dd", "hangs.dd"] {
        p.scenario(name, scenario).golden(name, golden);
    }
    let root = p.root.display().to_string();
    let testdata = p.root.join("testdata");
    let junit = p.root.join("junit.xml");
    let run = |point: &str, format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
            .args([
                testdata.to_str().unwrap(),
                "--timeout",
                "2",
                "--format",
                format,
            ])
            .arg("--junit")
            .arg(&junit)
            .env("RUNNER_CHILD_FAILPOINT", point)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout)
            .unwrap()
            .replace(&root, "ROOT");
        (out.status.code(), stdout)
    };
    let (code, out) = run("abort:aborts.dd", "text");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with(
            "FAIL ROOT/testdata/aborts.dd: the check of this file crashed: killed by signal 6 (SIGABRT: an abort, such as a stack overflow)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\nPASS ROOT/testdata/fine.dd\nPASS ROOT/testdata/hangs.dd\n"),
        "{out}"
    );
    assert!(out.ends_with("\n2 passed, 1 failed\n"), "{out}");
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<testcase name="aborts.dd::solo""#), "{xml}");
    assert!(xml.contains(r#"failures="2""#), "{xml}");

    let (code, out) = run("hang:hangs.dd", "json");
    assert_eq!(code, Some(1), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["passed"], 2);
    assert_eq!(doc["failed"], 1);
    let hung = &doc["files"][2];
    assert_eq!(hung["path"], "ROOT/testdata/hangs.dd");
    let summary = hung["problems"][0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with("the check of this file crashed: did not finish within 2 s"),
        "{hung}"
    );
}

#[test]
fn the_binary_prints_its_version_and_help_and_exits_2_on_usage_errors() {
    let (code, out, _) = runner_binary(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, format!("runner {}\n", env!("CARGO_PKG_VERSION")));
    let (code, out, _) = runner_binary(&["--help"]);
    assert_eq!(code, Some(0));
    for flag in [
        "--goldens",
        "--suite",
        "--filter",
        "--run",
        "--partition",
        "--jobs",
        "--format",
        "--junit",
        "--timeout",
        "--rewrite",
        "--version",
        "-h, --help",
    ] {
        assert!(out.contains(flag), "{flag} missing from:\n{out}");
    }
    let (code, _, err) = runner_binary(&["testdata", "--bogus"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("runner: unknown option `--bogus`\n"),
        "{err}"
    );
    let (code, _, err) = runner_binary(&[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("missing the scenario directory"), "{err}");
}

//! What every feature's tests share: a scripted stand-in for the engine
//! ([`fake`], recording the configurations it was built with in [`Built`]),
//! a temporary [`Project`] with the suite's `suite.yaml`, and the basic
//! scenario with its golden. A leaf: the feature modules import it, it
//! imports none of them.

use engine::repr::Datum;
use engine::{Config, Outcome, Witness};
use runner::app::{self, Env, Status};
use runner::cli::Options;
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
pub struct Built(pub Arc<Mutex<Vec<Config>>>);

pub fn fake(lie: bool, built: Built) -> impl Fn(&Config) -> Box<dyn Target> {
    move |config: &Config| {
        built.0.lock().unwrap().push(config.clone());
        Box::new(Fake {
            config: config.clone(),
            reads: 0,
            lie,
        }) as Box<dyn Target>
    }
}

pub const SUITE: &str = "configurations:\n  solo: {sharing: false}\n  shared: {sharing: true}\nworkers: [1, 2]\nschedules: [round-robin, 7]\n";

/// A project directory: `testdata/` (with suite.yaml) and `goldens/`.
pub struct Project {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

impl Project {
    pub fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        fs::create_dir_all(root.join("testdata")).unwrap();
        fs::create_dir_all(root.join("goldens")).unwrap();
        fs::write(root.join("testdata/suite.yaml"), SUITE).unwrap();
        Project { _dir: dir, root }
    }

    pub fn scenario(&self, rel: &str, text: &str) -> &Self {
        write(&self.root.join("testdata").join(rel), text);
        self
    }

    pub fn golden(&self, rel: &str, text: &str) -> &Self {
        write(&self.root.join("goldens").join(rel), text);
        self
    }

    pub fn read_golden(&self, rel: &str) -> Option<String> {
        fs::read_to_string(self.root.join("goldens").join(rel)).ok()
    }

    pub fn options(&self) -> Options {
        Options {
            scenarios: self.root.join("testdata"),
            ..Options::default()
        }
    }

    /// Runs the suite; returns the status and the printed report, with the
    /// temporary root replaced by `ROOT`.
    pub fn run_with(&self, options: &Options, env: &Env, factory: &Factory) -> (Status, String) {
        let mut out = Vec::new();
        let status = app::run(options, env, factory, &mut out);
        let text = String::from_utf8(out).unwrap();
        (status, text.replace(self.root.to_str().unwrap(), "ROOT"))
    }

    pub fn run(&self) -> (Status, String) {
        self.run_with(
            &self.options(),
            &Env::default(),
            &fake(false, Built::default()),
        )
    }

    pub fn rewrite(&self) -> (Status, String) {
        let options = Options {
            rewrite: true,
            ..self.options()
        };
        self.run_with(&options, &Env::default(), &fake(false, Built::default()))
    }
}

pub fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

pub fn last_line(report: &str) -> &str {
    report.lines().last().unwrap()
}

pub const BASIC: &str = "# A scenario.\n\nstatement\nCREATE TABLE t (a int)\n----\n\nquery\nSELECT rows\n----\n\nquery nosort\nSELECT rows\n----\n\nquery\nSELECT nothing\n----\n";
pub const BASIC_GOLDEN: &str = "# A scenario.\n\nstatement\nCREATE TABLE t (a int)\n----\nok\n\nquery\nSELECT rows\n----\nNULL NULL\n1 a\n2 b\n\nquery nosort\nSELECT rows\n----\n2 b\n1 a\nNULL NULL\n\nquery\nSELECT nothing\n----\n";

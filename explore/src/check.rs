//! A generated scenario through the suite's own machinery: parsed by the
//! runner, replayed under every run of a matrix on fresh engines, and held
//! to the suite's checks (no panic, runs agree, each configuration's
//! witness) plus one agreement cannot give: the independent model's claims
//! against the reference run.

use std::fmt;
use std::path::Path;

use runner::check::{divergence, witness};
use runner::format::Script;
use runner::run::replay::{replay, RunRecord};
use runner::run::target;
use runner::suite::matrix::Run;
use runner::suite::Schedule;

/// The runs a scenario is checked under.
#[derive(Clone, Debug)]
pub struct Matrix {
    /// (name, sharing, delta joins), the first the reference.
    pub configurations: Vec<(String, bool, bool)>,
    pub workers: Vec<usize>,
    pub schedules: Vec<Schedule>,
}

impl Default for Matrix {
    /// The suite's configurations, on one and two workers, round robin
    /// and one seeded schedule.
    fn default() -> Self {
        let c = |name: &str, sharing, delta| (name.to_string(), sharing, delta);
        Matrix {
            configurations: vec![
                c("solo", false, false),
                c("shared", true, false),
                c("shared-delta", true, true),
            ],
            workers: vec![1, 2],
            schedules: vec![Schedule::RoundRobin, Schedule::Seed(7)],
        }
    }
}

impl Matrix {
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        for (configuration, sharing, delta_joins) in &self.configurations {
            for workers in &self.workers {
                for schedule in &self.schedules {
                    runs.push(Run {
                        configuration: configuration.clone(),
                        sharing: *sharing,
                        delta_joins: *delta_joins,
                        workers: *workers,
                        schedule: *schedule,
                    });
                }
            }
        }
        runs
    }
}

/// How a scenario fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The generator wrote something the runner rejects (a generator bug).
    Parse,
    Panic,
    /// Runs printed different outputs.
    Divergence,
    /// A configuration failed to prove it was in effect (or leaked).
    Witness,
    /// The reference run printed what the model says it must not.
    Model,
}

/// A failure: its kind, the directive it shows at and what it says.
#[derive(Clone, Debug)]
pub struct Failure {
    pub kind: Kind,
    /// The first word of the directive line it shows at (`query`, `fetch`).
    pub directive: String,
    pub message: String,
}

impl Failure {
    /// Whether `other` fails the same way: the same kind at the same kind
    /// of directive (what the shrinker keeps).
    pub fn same_as(&self, other: &Failure) -> bool {
        self.kind == other.kind && self.directive == other.directive
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} at `{}`: {}",
            self.kind, self.directive, self.message
        )
    }
}

/// What one check found, with the reference run's outputs for a golden.
pub struct Outcome {
    pub failure: Option<Failure>,
    pub script: Option<Script>,
    pub reference: Vec<Option<Vec<String>>>,
}

fn directive_of(script: &Script, block: usize) -> String {
    let text = &script.blocks[block].directive.text;
    text.split_whitespace().next().unwrap_or("").to_string()
}

/// Checks the scenario `text` under every run of `matrix`.
pub fn check(text: &str, matrix: &Matrix) -> Outcome {
    let nothing = |failure| Outcome {
        failure: Some(failure),
        script: None,
        reference: Vec::new(),
    };
    let script = match Script::parse(Path::new("explore.dd"), "explore.dd", text) {
        Ok(script) => script,
        Err(e) => {
            return nothing(Failure {
                kind: Kind::Parse,
                directive: String::new(),
                message: e.to_string(),
            })
        }
    };
    let mut records: Vec<RunRecord> = Vec::new();
    for run in matrix.runs() {
        match replay(&script, &run, &target::engine) {
            Ok(record) => records.push(record),
            Err(panic) => {
                let message = format!("{run}: {}", panic.panic.message);
                let directive = match panic.stage {
                    runner::run::replay::Stage::Directive(b) => directive_of(&script, b),
                    _ => String::new(),
                };
                return Outcome {
                    failure: Some(Failure {
                        kind: Kind::Panic,
                        directive,
                        message,
                    }),
                    script: Some(script),
                    reference: Vec::new(),
                };
            }
        }
    }
    let reference = divergence::reference(&records, script.blocks.len());
    let failure = failure_of(&script, &records, &reference);
    Outcome {
        failure,
        script: Some(script),
        reference,
    }
}

fn failure_of(
    script: &Script,
    records: &[RunRecord],
    reference: &[Option<Vec<String>>],
) -> Option<Failure> {
    if let Some(d) = divergence::find(records) {
        let groups: Vec<String> = d
            .groups
            .iter()
            .map(|g| {
                let runs: Vec<String> =
                    g.runs.iter().map(|r| records[*r].run.to_string()).collect();
                format!("{} -> {:?}", runs.join(", "), g.output)
            })
            .collect();
        return Some(Failure {
            kind: Kind::Divergence,
            directive: directive_of(script, d.block),
            message: format!(
                "line {}: {}",
                script.blocks[d.block].directive.line,
                groups.join(" | ")
            ),
        });
    }
    for record in records {
        if let Err(message) = witness::check(record) {
            return Some(Failure {
                kind: Kind::Witness,
                directive: String::new(),
                message,
            });
        }
    }
    if let Err(m) = model::check(script, reference) {
        return Some(Failure {
            kind: Kind::Model,
            directive: directive_of(script, m.block),
            message: m.to_string(),
        });
    }
    None
}

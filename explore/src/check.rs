//! A generated scenario through the suite's own machinery: parsed by the
//! runner, replayed under every run of a matrix on fresh engines, and held
//! to the suite's checks (no panic, runs agree, each configuration's
//! witness) plus one agreement cannot give: the independent model's claims
//! against the reference run. It also keeps where the time went (`Spent`),
//! since replaying is nearly all of an exploration's cost.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

use engine::Config;
use runner::check::{divergence, witness};
use runner::format::Script;
use runner::run::replay::{replay, RunRecord};
use runner::run::timed::Times;
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
    /// The matrix as the runner's `suite.yaml`, so that `runner
    /// OUT/testdata` replays what the explorer wrote under the same runs.
    pub fn suite_yaml(&self) -> String {
        let mut yaml = String::from("# The explorer's run matrix.\nconfigurations:\n");
        for (name, sharing, delta) in &self.configurations {
            let joins = if *delta { ", joins: delta" } else { "" };
            yaml += &format!("  {name}: {{sharing: {sharing}{joins}}}\n");
        }
        let workers: Vec<String> = self.workers.iter().map(usize::to_string).collect();
        let schedules: Vec<String> = self
            .schedules
            .iter()
            .map(|s| match s {
                Schedule::RoundRobin => "round-robin".to_string(),
                Schedule::Seed(seed) => seed.to_string(),
            })
            .collect();
        yaml += &format!("workers: [{}]\n", workers.join(", "));
        yaml + &format!("schedules: [{}]\n", schedules.join(", "))
    }

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

/// Where checking time went, summed over checks.
#[derive(Clone, Debug, Default)]
pub struct Spent {
    pub parsing: Duration,
    /// Replaying, per configuration (in the matrix's order).
    pub replaying: Vec<(String, Duration)>,
    /// Replaying by what took the time: starting an engine (its timely
    /// runtimes), each kind of directive, dropping the engine.
    pub by_kind: BTreeMap<&'static str, Duration>,
    /// Holding the runs to each other, to the witness and to the model.
    pub judging: Duration,
}

impl Spent {
    fn replayed(&mut self, configuration: &str, time: Duration) {
        match self.replaying.iter_mut().find(|(c, _)| c == configuration) {
            Some((_, spent)) => *spent += time,
            None => self.replaying.push((configuration.to_string(), time)),
        }
    }

    pub fn total(&self) -> Duration {
        self.parsing + self.judging + self.replaying.iter().map(|(_, d)| *d).sum::<Duration>()
    }
}

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let replaying: Duration = self.replaying.iter().map(|(_, d)| *d).sum();
        let each: Vec<String> = self
            .replaying
            .iter()
            .map(|(c, d)| format!("{c} {:.1}", d.as_secs_f64()))
            .collect();
        let mut by_kind: Vec<(&str, Duration)> =
            self.by_kind.iter().map(|(k, d)| (*k, *d)).collect();
        by_kind.sort_by_key(|k| std::cmp::Reverse(k.1));
        let by_kind: Vec<String> = by_kind
            .iter()
            .map(|(k, d)| format!("{k} {:.1}", d.as_secs_f64()))
            .collect();
        write!(
            f,
            "parsing {:.1} s, replaying {:.1} s ({}; {}), judging {:.1} s",
            self.parsing.as_secs_f64(),
            replaying.as_secs_f64(),
            each.join(", "),
            by_kind.join(", "),
            self.judging.as_secs_f64()
        )
    }
}

/// Checks the scenario `text` under every run of `matrix`, adding the
/// time it takes to `spent`.
pub fn check(text: &str, matrix: &Matrix, spent: &mut Spent) -> Outcome {
    let nothing = |failure| Outcome {
        failure: Some(failure),
        script: None,
        reference: Vec::new(),
    };
    let start = Instant::now();
    let parsed = Script::parse(Path::new("explore.dd"), "explore.dd", text);
    spent.parsing += start.elapsed();
    let script = match parsed {
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
    let mut panicked = None;
    let times = Times::default();
    let engine = |config: &Config| times.engine(config);
    for run in matrix.runs() {
        let start = Instant::now();
        let replayed = replay(&script, &run, &engine);
        spent.replayed(&run.configuration, start.elapsed());
        for (kind, time) in times.take() {
            *spent.by_kind.entry(kind).or_default() += time;
        }
        match replayed {
            Ok(record) => records.push(record),
            // The first panic is the failure; the other runs still play,
            // so that the golden has the reference run's outputs.
            Err(panic) => {
                let directive = match panic.stage {
                    runner::run::replay::Stage::Directive(b) => directive_of(&script, b),
                    _ => String::new(),
                };
                panicked.get_or_insert(Failure {
                    kind: Kind::Panic,
                    directive,
                    message: format!("{run}: {}", panic.panic.message),
                });
            }
        }
    }
    let start = Instant::now();
    let reference = divergence::reference(&records, script.blocks.len());
    let failure = panicked.or_else(|| failure_of(&script, &records, &reference));
    spent.judging += start.elapsed();
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

#[cfg(test)]
mod tests {
    use super::*;
    use runner::suite::Suite;

    /// The `suite.yaml` written beside found files describes exactly the
    /// explorer's runs, so the runner replays them the same way.
    #[test]
    fn the_suite_yaml_is_the_matrix() {
        let matrix = Matrix::default();
        let suite = Suite::parse("suite.yaml", &matrix.suite_yaml()).expect("parses");
        let names: Vec<(String, bool, bool)> = suite
            .configurations
            .iter()
            .map(|c| (c.name.clone(), c.sharing, c.delta_joins))
            .collect();
        assert_eq!(names, matrix.configurations);
        assert_eq!(suite.workers, matrix.workers);
        assert_eq!(suite.schedules, matrix.schedules);
    }
}

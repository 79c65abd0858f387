//! Per-configuration verdicts on one file: what a JUnit case or a
//! `cargo test` trial named `file::configuration` reports. A configuration
//! fails when one of its runs panicked, failed its witness, or produced a
//! transcript other than the golden, or when the file fails as a whole.

use crate::check::witness;
use crate::run::replay::{RunPanic, RunRecord};
use crate::suite::matrix::Run;

/// How one configuration of a file fared.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Passed,
    /// One line per reason.
    Failed(Vec<String>),
    /// Not checked, because the file stopped before (the reason).
    NotRun(String),
}

/// Every named configuration failed for `reasons` (the file could not run).
pub fn all_failed(
    names: impl IntoIterator<Item = String>,
    reasons: &[String],
) -> Vec<(String, Verdict)> {
    names
        .into_iter()
        .map(|n| (n, Verdict::Failed(reasons.to_vec())))
        .collect()
}

/// The configurations of `runs` in order, each once.
fn configurations(runs: impl IntoIterator<Item = Run>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for run in runs {
        if !names.contains(&run.configuration) {
            names.push(run.configuration);
        }
    }
    names
}

/// The check stops at the first panic: its configuration failed, and the
/// others were not (all) replayed.
pub fn after_panic(runs: &[Run], panic: &RunPanic) -> Vec<(String, Verdict)> {
    configurations(runs.iter().cloned())
        .into_iter()
        .map(|name| {
            let verdict = if name == panic.run.configuration {
                Verdict::Failed(vec![format!("engine panicked under {}", panic.run)])
            } else {
                Verdict::NotRun(format!(
                    "the file's check stopped when the engine panicked under {}",
                    panic.run
                ))
            };
            (name, verdict)
        })
        .collect()
}

/// The verdicts after every run completed. `transcript_of` renders a run's
/// transcript; `golden` is the golden's text (`None`: missing); `general`
/// are failures of the file that no run is to blame for.
pub fn per_configuration(
    records: &[RunRecord],
    transcript_of: impl Fn(&RunRecord) -> String,
    golden: Option<&str>,
    general: &[String],
) -> Vec<(String, Verdict)> {
    configurations(records.iter().map(|r| r.run.clone()))
        .into_iter()
        .map(|name| {
            let mut reasons = general.to_vec();
            let mine: Vec<&RunRecord> = records
                .iter()
                .filter(|r| r.run.configuration == name)
                .collect();
            reasons.extend(mine.iter().filter_map(|r| witness::check(r).err()));
            match golden {
                None => reasons.push("no golden".to_string()),
                Some(g) => {
                    let differ: Vec<&&RunRecord> =
                        mine.iter().filter(|r| transcript_of(r) != g).collect();
                    if let Some(first) = differ.first() {
                        reasons.push(format!(
                            "the transcript of {} of {} run(s) differs from the golden (first: {})",
                            differ.len(),
                            mine.len(),
                            first.run
                        ));
                    }
                }
            }
            let verdict = if reasons.is_empty() {
                Verdict::Passed
            } else {
                Verdict::Failed(reasons)
            };
            (name, verdict)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::capture::Panic;
    use crate::run::replay::Stage;
    use crate::suite::Schedule;
    use engine::Witness;

    fn run(config: &str, workers: usize) -> Run {
        Run {
            configuration: config.into(),
            sharing: config == "shared",
            delta_joins: false,
            workers,
            schedule: Schedule::RoundRobin,
        }
    }

    fn record(config: &str, workers: usize, output: &str) -> RunRecord {
        RunRecord {
            run: run(config, workers),
            outputs: vec![Some(vec![output.to_string()])],
            reads: 0,
            witness: Witness::default(),
        }
    }

    fn text(r: &RunRecord) -> String {
        r.outputs[0].as_ref().unwrap()[0].clone()
    }

    #[test]
    fn a_configuration_fails_where_its_runs_leave_the_golden() {
        let records = [
            record("solo", 1, "a"),
            record("solo", 2, "a"),
            record("shared", 1, "a"),
            record("shared", 2, "b"),
        ];
        let v = per_configuration(&records, text, Some("a"), &[]);
        assert_eq!(v[0], ("solo".to_string(), Verdict::Passed));
        assert_eq!(
            v[1],
            (
                "shared".to_string(),
                Verdict::Failed(vec![
                    "the transcript of 1 of 2 run(s) differs from the golden (first: shared/workers=2/round-robin)".into()
                ])
            )
        );
        let v = per_configuration(&records, text, None, &["x".to_string()]);
        assert_eq!(
            v[0].1,
            Verdict::Failed(vec!["x".into(), "no golden".into()])
        );
    }

    #[test]
    fn a_panic_fails_its_configuration_only() {
        let runs = [run("solo", 1), run("shared", 1)];
        let p = RunPanic {
            run: run("shared", 1),
            stage: Stage::Create,
            panic: Panic {
                message: "boom".into(),
                location: None,
                others: vec![],
            },
        };
        let v = after_panic(&runs, &p);
        assert!(matches!(&v[0].1, Verdict::NotRun(m) if m.contains("shared/workers=1")));
        assert!(matches!(&v[1].1, Verdict::Failed(_)));
    }
}

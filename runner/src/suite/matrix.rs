//! The runs of one file: the suite's configurations x worker counts x
//! schedules, narrowed by the file's header, and the check that every
//! directive's `configs=` names configurations the file runs under.

use crate::format::{Script, ScriptError};
use crate::suite::header::{self, Header};
use crate::suite::{Schedule, Suite, MAX_WORKERS};
use std::fmt;
use std::path::Path;

/// One replay of a file: a fresh engine under one configuration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// The configuration's name in suite.yaml.
    pub configuration: String,
    pub sharing: bool,
    /// Joins planned as delta joins where the inputs allow.
    #[serde(default)]
    pub delta_joins: bool,
    pub workers: usize,
    pub schedule: Schedule,
}

impl Run {
    /// The engine configuration of this run.
    pub fn config(&self) -> engine::Config {
        engine::Config {
            sharing: self.sharing,
            workers: self.workers,
            seed: self.schedule.seed(),
            joins: match self.delta_joins {
                true => engine::JoinPlan::Delta,
                false => engine::JoinPlan::Linear,
            },
        }
    }
}

impl fmt::Display for Run {
    /// `shared/workers=2/seed=7`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/workers={}/{}",
            self.configuration, self.workers, self.schedule
        )
    }
}

/// Checks a `--run` name: a run as [`Run`] displays it
/// (`shared/workers=2/seed=7`), of a configuration `suite` defines, with a
/// worker count and schedule a header could give it. Whether a file's
/// matrix has that run is the file's business.
pub fn check_run_name(suite: &Suite, name: &str) -> Result<(), String> {
    let bad = |why: String| {
        Err(format!(
            "--run {name}: {why} (a run looks like `{}/workers=1/round-robin` or `.../seed=7`)",
            suite.configurations[0].name
        ))
    };
    let [configuration, workers, schedule] = name.split('/').collect::<Vec<_>>()[..] else {
        return bad("not configuration/workers=N/schedule".into());
    };
    if suite.configuration(configuration).is_none() {
        let known: Vec<&str> = suite
            .configurations
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        return bad(format!(
            "suite.yaml defines no configuration `{configuration}` (it defines: {})",
            known.join(", ")
        ));
    }
    match workers.strip_prefix("workers=").map(str::parse::<usize>) {
        Some(Ok(n)) if (1..=MAX_WORKERS).contains(&n) => {}
        _ => {
            return bad(format!(
                "`{workers}` is not workers=N with N from 1 to {MAX_WORKERS}"
            ))
        }
    }
    let parsed = match schedule.strip_prefix("seed=") {
        Some(seed) => seed.parse::<u64>().is_ok(),
        None => schedule == "round-robin",
    };
    if !parsed {
        return bad(format!("`{schedule}` is not round-robin or seed=N"));
    }
    Ok(())
}

/// A file's text parsed: its header, its directives and all of its runs
/// (`path` names the file, `shown` is how errors show it), or the first
/// error as a message.
pub fn script_and_runs(
    path: &Path,
    shown: &str,
    suite: &Suite,
    text: &str,
) -> Result<(Script, Vec<Run>), String> {
    // A foreign file's comments are not ours to read as a header.
    let header = match suite.corpus.foreign {
        true => Header::default(),
        false => header::parse(text).map_err(|e| format!("{shown}:{}: {}", e.line, e.message))?,
    };
    let script =
        Script::parse_in(path, shown, text, suite.corpus.dialect).map_err(|e| e.to_string())?;
    let runs = runs(shown, suite, &header, &script).map_err(|e| e.to_string())?;
    Ok((script, runs))
}

/// The runs of `script` (at `path`, for errors), in a fixed order:
/// configurations in suite order, then worker counts, then schedules.
pub fn runs(
    path: &str,
    suite: &Suite,
    header: &Header,
    script: &Script,
) -> Result<Vec<Run>, ScriptError> {
    let error = |line: usize, message: String| ScriptError {
        path: path.to_string(),
        line,
        message,
    };
    let known = |name: &str| suite.configuration(name).is_some();
    let known_list = || {
        suite
            .configurations
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let configurations: Vec<_> = match &header.configs {
        None => suite.configurations.iter().collect(),
        Some(n) => {
            if let Some(bad) = n.values.iter().find(|v| !known(v)) {
                return Err(error(
                    n.line,
                    format!(
                        "header `configs:` names `{bad}`, which suite.yaml does not define (it defines: {})",
                        known_list()
                    ),
                ));
            }
            // Keep suite order whatever order the header lists them in.
            suite
                .configurations
                .iter()
                .filter(|c| n.values.contains(&c.name))
                .collect()
        }
    };
    for block in &script.blocks {
        let d = &block.directive;
        if let Some(bad) = d.configs.iter().flatten().find(|v| !known(v)) {
            return Err(error(
                d.line,
                format!(
                    "`configs=` names `{bad}`, which suite.yaml does not define (it defines: {})",
                    known_list()
                ),
            ));
        }
        // A label that names no configuration is another database's (an
        // `onlyif postgres` record is meant to run nowhere here).
        let foreign = d.conditions.iter().any(|c| !known(c.label()));
        if !foreign && !configurations.iter().any(|c| d.runs_under(&c.name)) {
            return Err(error(
                d.line,
                "this directive runs under none of the file's configurations".to_string(),
            ));
        }
    }
    let workers = header
        .workers
        .as_ref()
        .map_or(&suite.workers, |n| &n.values);
    let schedules = header
        .seeds
        .as_ref()
        .map_or(&suite.schedules, |n| &n.values);
    let mut runs = Vec::new();
    for c in configurations {
        for &w in workers {
            for &s in schedules {
                runs.push(Run {
                    configuration: c.name.clone(),
                    sharing: c.sharing,
                    delta_joins: c.delta_joins,
                    workers: w,
                    schedule: s,
                });
            }
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{format::dd::parse, suite::header};

    const SUITE: &str = "configurations:\n  solo: {sharing: false}\n  shared: {sharing: true}\nworkers: [1, 2]\nschedules: [round-robin, 7]\n";

    fn plan(text: &str) -> Result<Vec<String>, ScriptError> {
        let suite = Suite::parse("suite.yaml", SUITE).unwrap();
        let script = parse::parse("f.dd", text).unwrap();
        let header = header::parse(text).unwrap();
        Ok(runs("f.dd", &suite, &header, &script)?
            .iter()
            .map(|r| r.to_string())
            .collect())
    }

    #[test]
    fn full_matrix_in_order() {
        assert_eq!(
            plan("tick\n----\n").unwrap(),
            [
                "solo/workers=1/round-robin",
                "solo/workers=1/seed=7",
                "solo/workers=2/round-robin",
                "solo/workers=2/seed=7",
                "shared/workers=1/round-robin",
                "shared/workers=1/seed=7",
                "shared/workers=2/round-robin",
                "shared/workers=2/seed=7",
            ]
        );
    }

    #[test]
    fn narrowed_by_header() {
        assert_eq!(
            plan("# configs: shared, solo\n# workers: 3\n# seeds: 9\n").unwrap(),
            ["solo/workers=3/seed=9", "shared/workers=3/seed=9"]
        );
        assert_eq!(
            plan("# configs: shared\n").unwrap(),
            [
                "shared/workers=1/round-robin",
                "shared/workers=1/seed=7",
                "shared/workers=2/round-robin",
                "shared/workers=2/seed=7"
            ]
        );
    }

    #[test]
    fn run_config() {
        let r = Run {
            configuration: "shared".into(),
            sharing: true,
            delta_joins: true,
            workers: 2,
            schedule: Schedule::Seed(7),
        };
        assert_eq!(
            r.config(),
            engine::Config {
                sharing: true,
                workers: 2,
                seed: Some(7),
                joins: engine::JoinPlan::Delta,
            }
        );
    }

    #[test]
    fn errors() {
        let e = plan("# configs: solo, turbo\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.to_string()
                .starts_with("f.dd:1: header `configs:` names `turbo`"),
            "{e}"
        );
        let e = plan("tick\n----\n\ntick configs=(solo,turbo)\n----\n").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("`turbo`"), "{e}");
        let e = plan("# configs: solo\n\ntick configs=shared\n----\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.dd:3: this directive runs under none of the file's configurations"
        );
    }

    #[test]
    fn run_names_are_checked_against_the_suite() {
        let suite = Suite::parse("suite.yaml", SUITE).unwrap();
        for ok in [
            "solo/workers=1/round-robin",
            "shared/workers=64/seed=7",
            "shared/workers=3/seed=0",
        ] {
            assert_eq!(check_run_name(&suite, ok), Ok(()), "{ok}");
        }
        let e = check_run_name(&suite, "turbo/workers=2/seed=7").unwrap_err();
        assert_eq!(
            e,
            "--run turbo/workers=2/seed=7: suite.yaml defines no configuration `turbo` (it defines: solo, shared) (a run looks like `solo/workers=1/round-robin` or `.../seed=7`)"
        );
        for bad in [
            "shared",
            "shared/workers=2",
            "shared/workers=0/seed=7",
            "shared/workers=65/seed=7",
            "shared/w=2/seed=7",
            "shared/workers=2/7",
            "shared/workers=2/seed=x",
            "shared/workers=2/seed=7/extra",
        ] {
            assert!(check_run_name(&suite, bad).is_err(), "{bad}");
        }
    }
}

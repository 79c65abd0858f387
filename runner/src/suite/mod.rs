//! `testdata/suite.yaml`: the configurations, worker counts and schedules
//! every scenario runs under unless its header narrows them.
//!
//! ```yaml
//! configurations:
//!   solo: {sharing: false}
//!   shared: {sharing: true}
//! workers: [1, 2, 3]
//! schedules: [round-robin, 7, 42]
//! ```
//! Configurations keep the order of the file (the first one is the reference
//! that other runs are compared with); a schedule is `round-robin` or a seed.

pub mod discover;
pub mod header;
pub mod matrix;
pub mod partition;

use crate::format::Dialect;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::path::Path;

/// The most timely workers a run may have, in the suite or a header. Each
/// is an OS thread per runtime, stepped one at a time, so more only slows a
/// run down; a typo like `workers: 1000` is an error instead.
pub const MAX_WORKERS: usize = 64;

/// How the scheduler picks the next (runtime, worker) to step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Schedule {
    RoundRobin,
    Seed(u64),
}

impl Schedule {
    /// The engine's `Config::seed`.
    pub fn seed(self) -> Option<u64> {
        match self {
            Schedule::RoundRobin => None,
            Schedule::Seed(s) => Some(s),
        }
    }

    /// Parses `round-robin` or a non-negative integer seed.
    pub fn parse(s: &str) -> Result<Schedule, String> {
        if s == "round-robin" {
            return Ok(Schedule::RoundRobin);
        }
        s.parse::<u64>().map(Schedule::Seed).map_err(|_| {
            format!("`{s}` is not a schedule (`round-robin` or a non-negative integer seed)")
        })
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::RoundRobin => write!(f, "round-robin"),
            Schedule::Seed(s) => write!(f, "seed={s}"),
        }
    }
}

/// As suite.yaml writes it, so that it deserializes back.
impl serde::Serialize for Schedule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Schedule::RoundRobin => s.serialize_str("round-robin"),
            Schedule::Seed(seed) => s.serialize_u64(*seed),
        }
    }
}

impl<'de> Deserialize<'de> for Schedule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Schedule;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("`round-robin` or a non-negative integer seed")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Schedule, E> {
                Ok(Schedule::Seed(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Schedule, E> {
                u64::try_from(v)
                    .map(Schedule::Seed)
                    .map_err(|_| E::custom(format!("seed {v} is negative")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Schedule, E> {
                Schedule::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A named configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configuration {
    pub name: String,
    /// Sharing on: a maintenance and an interactive runtime.
    pub sharing: bool,
    /// `joins: delta`: joins over indexes planned as delta joins.
    pub delta_joins: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigurationSpec {
    sharing: bool,
    #[serde(default)]
    joins: JoinsSpec,
}

/// How a configuration plans joins.
#[derive(Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum JoinsSpec {
    #[default]
    Linear,
    Delta,
}

/// The configurations in file order.
struct Configurations(Vec<Configuration>);

impl<'de> Deserialize<'de> for Configurations {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Configurations;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a map from configuration name to `{sharing: bool[, joins: linear|delta]}`",
                )
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Configurations, A::Error> {
                let mut out: Vec<Configuration> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let spec: ConfigurationSpec = map.next_value()?;
                    if out.iter().any(|c| c.name == name) {
                        return Err(de::Error::custom(format!(
                            "configuration `{name}` is defined twice"
                        )));
                    }
                    out.push(Configuration {
                        name,
                        sharing: spec.sharing,
                        delta_joins: spec.joins == JoinsSpec::Delta,
                    });
                }
                Ok(Configurations(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteSpec {
    configurations: Configurations,
    workers: Vec<usize>,
    schedules: Vec<Schedule>,
}

/// The whole run matrix before any file narrows it, and how its files
/// are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    pub configurations: Vec<Configuration>,
    pub workers: Vec<usize>,
    pub schedules: Vec<Schedule>,
    pub corpus: Corpus,
}

/// How a suite's files are read and what they are held to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    /// Every `.slt` file is read in this dialect (`--dialect`; Materialize's
    /// for a foreign corpus); `None`: in the one its header names.
    pub dialect: Option<Dialect>,
    /// A foreign corpus (a directory without `suite.yaml`): each file's own
    /// expected results are its golden, no header narrows its runs, and
    /// nothing is ever written into it.
    pub foreign: bool,
}

/// The run matrix of a foreign corpus that brings no `suite.yaml`: the
/// project's own (`testdata/suite.yaml`), so that every file replays with
/// sharing off and on, linear and delta joins, one to three workers and
/// three schedules.
pub const FOREIGN_SUITE: &str = "\
configurations:
  solo: {sharing: false}
  shared: {sharing: true}
  shared-delta: {sharing: true, joins: delta}
workers: [1, 2, 3]
schedules: [round-robin, 7, 42]
";

impl Suite {
    /// Parses suite.yaml text; `path` is only used in errors.
    pub fn parse(path: &str, text: &str) -> Result<Suite, String> {
        let spec: SuiteSpec = yaml_serde::from_str(text).map_err(|e| {
            if let Some(message) = defined_twice(path, text, &e.to_string()) {
                return message;
            }
            match e.location() {
                Some(loc) => format!("{path}:{}: {e}", loc.line()),
                None => format!("{path}: {e}"),
            }
        })?;
        let suite = Suite {
            configurations: spec.configurations.0,
            workers: spec.workers,
            schedules: spec.schedules,
            corpus: Corpus::default(),
        };
        suite.validate().map_err(|m| format!("{path}: {m}"))?;
        Ok(suite)
    }

    /// Reads and parses a suite.yaml file.
    pub fn load(path: &Path) -> Result<Suite, String> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        // A UTF-8 byte-order mark at the start (an editor's) is not YAML.
        Suite::parse(&shown, text.strip_prefix('\u{feff}').unwrap_or(&text))
    }

    fn validate(&self) -> Result<(), String> {
        if self.configurations.is_empty() {
            return Err("`configurations` is empty".into());
        }
        for c in &self.configurations {
            if !is_name(&c.name) {
                return Err(format!(
                    "configuration name `{}` must be lowercase letters, digits, `-` or `_`",
                    c.name
                ));
            }
        }
        check_list("workers", &self.workers)?;
        if self.workers.contains(&0) {
            return Err("`workers` must be at least 1".into());
        }
        if let Some(n) = self.workers.iter().find(|n| **n > MAX_WORKERS) {
            return Err(format!("`workers` lists {n}, more than {MAX_WORKERS}"));
        }
        check_list("schedules", &self.schedules)?;
        Ok(())
    }

    /// The configuration of that name.
    pub fn configuration(&self, name: &str) -> Option<&Configuration> {
        self.configurations.iter().find(|c| c.name == name)
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// The error of a configuration defined twice, at the line of the second
/// definition (the parser places it at the first), if `error` is one.
fn defined_twice(path: &str, text: &str, error: &str) -> Option<String> {
    let name = error
        .split_once("configuration `")?
        .1
        .split_once("` is defined twice")?
        .0;
    let defines = |line: &&str| {
        let key = line.trim_start();
        let key = ["\"", "'"]
            .iter()
            .find_map(|q| key.strip_prefix(q)?.strip_prefix(name)?.strip_prefix(q))
            .or_else(|| key.strip_prefix(name));
        line.starts_with(char::is_whitespace)
            && key.is_some_and(|rest| rest.trim_start().starts_with(':'))
    };
    let mut lines = (1..).zip(text.lines()).filter(|(_, l)| defines(l));
    let (first, _) = lines.next()?;
    let (second, _) = lines.next()?;
    Some(format!(
        "{path}:{second}: configuration `{name}` is defined twice (first at line {first})"
    ))
}

/// A list must be non-empty and free of duplicates.
pub(crate) fn check_list<T: PartialEq + fmt::Display>(key: &str, list: &[T]) -> Result<(), String> {
    if list.is_empty() {
        return Err(format!("`{key}` is empty"));
    }
    for (i, v) in list.iter().enumerate() {
        if list[..i].contains(v) {
            return Err(format!("`{key}` lists `{v}` twice"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str = "\
# comment
configurations:
  solo: {sharing: false}
  shared: {sharing: true}
workers: [1, 2, 3]
schedules: [round-robin, 7, 42]
";

    #[test]
    fn parses_in_file_order() {
        let s = Suite::parse("suite.yaml", SUITE).unwrap();
        assert_eq!(
            s.configurations,
            [
                Configuration {
                    name: "solo".into(),
                    sharing: false,
                    delta_joins: false,
                },
                Configuration {
                    name: "shared".into(),
                    sharing: true,
                    delta_joins: false,
                },
            ]
        );
        assert_eq!(s.workers, [1, 2, 3]);
        assert_eq!(
            s.schedules,
            [Schedule::RoundRobin, Schedule::Seed(7), Schedule::Seed(42)]
        );
        assert_eq!(s.schedules[0].seed(), None);
        assert_eq!(s.schedules[1].seed(), Some(7));
        assert_eq!(s.schedules[1].to_string(), "seed=7");
    }

    #[test]
    fn the_foreign_default_is_the_projects_matrix() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/suite.yaml");
        let ours = Suite::load(&path).unwrap();
        let foreign = Suite::parse("default", FOREIGN_SUITE).unwrap();
        assert_eq!(foreign, ours);
    }

    #[test]
    fn the_projects_suite_parses() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/suite.yaml");
        let s = Suite::load(&path).unwrap();
        assert!(s.configuration("solo").is_some_and(|c| !c.sharing));
        assert!(s.configuration("shared").is_some_and(|c| c.sharing));
        assert_eq!(s.workers, [1, 2, 3]);
        assert_eq!(s.schedules.len(), 3);
        assert_eq!(s.schedules[0], Schedule::RoundRobin);
    }

    fn err(text: &str) -> String {
        Suite::parse("suite.yaml", text).unwrap_err()
    }

    /// A configuration defined twice was reported at the first definition's
    /// line; it is reported at the second, quoted or not.
    #[test]
    fn a_duplicate_configuration_is_reported_at_its_line() {
        for solo in ["solo", "\"solo\"", "'solo'"] {
            let e = err(&format!(
                "configurations:\n  solo: {{sharing: false}}\n  shared: {{sharing: true}}\n  {solo}: {{sharing: true}}\nworkers: [1]\nschedules: [round-robin]\n"
            ));
            assert_eq!(
                e,
                "suite.yaml:4: configuration `solo` is defined twice (first at line 2)"
            );
        }
    }

    #[test]
    fn errors() {
        let e = err(
            "configurations:\n  solo: {sharing: false, extra: 1}\nworkers: [1]\nschedules: [7]\n",
        );
        assert!(e.starts_with("suite.yaml:2: "), "{e}");
        assert!(e.contains("extra"), "{e}");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [1]\nschedules: [fast]\n");
        assert!(e.contains("`fast` is not a schedule"), "{e}");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [1]\nschedules: [-3]\n");
        assert!(e.contains("negative"), "{e}");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [1]\n");
        assert!(e.contains("schedules"), "{e}");
        let e = err(
            "configurations:\n  solo: {sharing: false}\nworkers: [1]\nschedules: [7]\nseeds: [1]\n",
        );
        assert!(e.contains("seeds"), "{e}");
        let e = err("configurations: {}\nworkers: [1]\nschedules: [7]\n");
        assert_eq!(e, "suite.yaml: `configurations` is empty");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [1, 1]\nschedules: [7]\n");
        assert_eq!(e, "suite.yaml: `workers` lists `1` twice");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [0]\nschedules: [7]\n");
        assert_eq!(e, "suite.yaml: `workers` must be at least 1");
        let e = err("configurations:\n  solo: {sharing: false}\nworkers: [65]\nschedules: [7]\n");
        assert_eq!(e, "suite.yaml: `workers` lists 65, more than 64");
        let e = err("configurations:\n  Solo: {sharing: false}\nworkers: [1]\nschedules: [7]\n");
        assert!(e.contains("`Solo`"), "{e}");
        let e = err("configurations:\n  solo: {sharing: false}\n  solo: {sharing: true}\nworkers: [1]\nschedules: [7]\n");
        assert!(e.contains("solo"), "{e}");
    }
}

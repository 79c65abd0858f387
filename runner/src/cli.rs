//! Command-line arguments, and the command line that reproduces a failure.

use crate::partition::Partition;
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: runner [OPTIONS] DIR

Replays every *.dd and *.slt scenario under DIR against the reference engine
under each configuration x worker count x schedule of DIR/suite.yaml, and
checks the transcripts against the goldens.

options:
  --goldens DIR       goldens directory (default: `goldens` beside DIR)
  --suite FILE        run matrix (default: DIR/suite.yaml)
  --filter SUBSTR     only files whose path relative to DIR contains SUBSTR
  --run RUN           only the run RUN of each file, e.g. `shared/workers=2/seed=7`
                      (repeatable; a failure report prints the one to use)
  --partition I/N     only shard I of N (a stable hash of each file's path)
  --jobs N            check N files at a time (the report keeps path order)
  --format text|json  the report on stdout (default: text)
  --junit FILE        also write a JUnit XML report, one case per file x configuration
  --rewrite           write goldens that changed (same as REWRITE=1; refused under CI=true)
  -h, --help          this text

exit status: 0 all files passed, 1 some failed, 2 usage error";

/// What the command line asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub scenarios: PathBuf,
    pub goldens: Option<PathBuf>,
    pub suite: Option<PathBuf>,
    pub filter: Option<String>,
    pub rewrite: bool,
    /// `--run`: only these runs (as `Run` displays them); empty: all.
    pub runs: Vec<String>,
    pub partition: Option<Partition>,
    /// `--jobs`: files checked at a time (0 and 1 both mean one).
    pub jobs: usize,
    pub format: ReportFormat,
    pub junit: Option<PathBuf>,
}

/// `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// A line per file and the `N passed, M failed` line.
    #[default]
    Text,
    /// One JSON document.
    Json,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    Run(Options),
    Help,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Invocation, String> {
    let mut options = Options::default();
    let mut dir: Option<PathBuf> = None;
    let mut i = 0;
    let mut only_positional = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positional || !arg.starts_with('-') || arg == "-" {
            if dir.replace(PathBuf::from(arg)).is_some() {
                return Err(format!(
                    "unexpected argument `{arg}`: give one scenario directory"
                ));
            }
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args
                .get(i)
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))?;
            i += 1;
            Ok(v)
        };
        match flag {
            "--" => only_positional = true,
            "-h" | "--help" => return Ok(Invocation::Help),
            "--rewrite" if inline.is_none() => options.rewrite = true,
            "--goldens" => options.goldens = Some(PathBuf::from(value(flag)?)),
            "--suite" => options.suite = Some(PathBuf::from(value(flag)?)),
            "--filter" => options.filter = Some(value(flag)?),
            "--run" => options.runs.push(value(flag)?),
            "--partition" => options.partition = Some(value(flag)?.parse()?),
            "--jobs" => {
                let v = value(flag)?;
                options.jobs = match v.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("--jobs `{v}`: expected a positive integer")),
                }
            }
            "--format" => {
                options.format = match value(flag)?.as_str() {
                    "text" => ReportFormat::Text,
                    "json" => ReportFormat::Json,
                    other => return Err(format!("--format `{other}`: expected `text` or `json`")),
                }
            }
            "--junit" => options.junit = Some(PathBuf::from(value(flag)?)),
            _ => return Err(format!("unknown option `{arg}`")),
        }
    }
    options.scenarios = dir.ok_or("missing the scenario directory (e.g. `testdata`)")?;
    Ok(Invocation::Run(options))
}

/// The command that replays only `rel` (relative to DIR) under `runs`
/// (all runs if empty), with this invocation's directories.
pub fn reproduce(options: &Options, rel: &str, runs: &[String]) -> String {
    let mut args = vec![
        "cargo".to_string(),
        "run".into(),
        "-p".into(),
        "runner".into(),
        "--".into(),
        options.scenarios.display().to_string(),
    ];
    if let Some(g) = &options.goldens {
        args.extend(["--goldens".into(), g.display().to_string()]);
    }
    if let Some(s) = &options.suite {
        args.extend(["--suite".into(), s.display().to_string()]);
    }
    args.extend(["--filter".into(), rel.to_string()]);
    for run in runs {
        args.extend(["--run".into(), run.clone()]);
    }
    args.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `arg` as a POSIX shell word.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Invocation, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn flags() {
        assert_eq!(
            p(&["testdata"]),
            Ok(Invocation::Run(Options {
                scenarios: "testdata".into(),
                ..Options::default()
            }))
        );
        assert_eq!(
            p(&[
                "--rewrite",
                "--filter",
                "peeks/",
                "testdata",
                "--goldens=g",
                "--suite",
                "s.yaml"
            ]),
            Ok(Invocation::Run(Options {
                scenarios: "testdata".into(),
                goldens: Some("g".into()),
                suite: Some("s.yaml".into()),
                filter: Some("peeks/".into()),
                rewrite: true,
                ..Options::default()
            }))
        );
        assert_eq!(p(&["-h"]), Ok(Invocation::Help));
        assert_eq!(
            p(&["--", "-odd"]),
            Ok(Invocation::Run(Options {
                scenarios: "-odd".into(),
                ..Options::default()
            }))
        );
    }

    #[test]
    fn suite_flags() {
        let Ok(Invocation::Run(o)) = p(&[
            "testdata",
            "--run",
            "solo/workers=1/round-robin",
            "--run=shared/workers=2/seed=7",
            "--partition",
            "2/3",
            "--jobs=4",
            "--format",
            "json",
            "--junit",
            "junit.xml",
        ]) else {
            panic!()
        };
        assert_eq!(
            o.runs,
            ["solo/workers=1/round-robin", "shared/workers=2/seed=7"]
        );
        assert_eq!(o.partition.unwrap().to_string(), "2/3");
        assert_eq!(o.jobs, 4);
        assert_eq!(o.format, ReportFormat::Json);
        assert_eq!(o.junit, Some("junit.xml".into()));
        assert!(p(&["a", "--jobs", "0"]).is_err());
        assert!(p(&["a", "--format", "xml"]).is_err());
        assert!(p(&["a", "--partition", "4/3"]).is_err());
    }

    #[test]
    fn reproduce_commands_are_shell_words() {
        let o = Options {
            scenarios: "testdata".into(),
            suite: Some("my suite.yaml".into()),
            ..Options::default()
        };
        assert_eq!(
            reproduce(&o, "slt/a.slt", &["shared/workers=2/seed=7".into()]),
            "cargo run -p runner -- testdata --suite 'my suite.yaml' --filter slt/a.slt --run shared/workers=2/seed=7"
        );
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }

    #[test]
    fn usage_errors() {
        assert!(p(&[])
            .unwrap_err()
            .contains("missing the scenario directory"));
        assert_eq!(
            p(&["a", "b"]).unwrap_err(),
            "unexpected argument `b`: give one scenario directory"
        );
        assert_eq!(
            p(&["a", "--bogus"]).unwrap_err(),
            "unknown option `--bogus`"
        );
        assert_eq!(
            p(&["a", "--filter"]).unwrap_err(),
            "`--filter` needs a value"
        );
        assert_eq!(
            p(&["a", "--rewrite=1"]).unwrap_err(),
            "unknown option `--rewrite=1`"
        );
    }
}

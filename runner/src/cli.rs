//! Command-line arguments, and the command line that reproduces a failure.

use crate::format::Dialect;
use crate::suite::partition::Partition;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, CommandFactory, Parser};
use std::path::PathBuf;

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
    /// `--jobs`: files checked at a time; 0, when not given, means one per
    /// core ([`Options::jobs_at_once`]).
    pub jobs: usize,
    pub format: ReportFormat,
    pub junit: Option<PathBuf>,
    /// `--timeout`: seconds a file's check may take (default 600).
    pub timeout: Option<u64>,
    /// `--annotations github|none`: GitHub annotations on or off (default:
    /// on under `GITHUB_ACTIONS=true`).
    pub annotations: Option<bool>,
    /// `--dialect`: how every `.slt` file is read.
    pub dialect: Option<Dialect>,
}

impl Options {
    /// Files checked at a time: `--jobs N`, or one per core when it is not
    /// given, since a file's runs step every worker on one thread and so
    /// keep one core busy (before 2026-12-07 the default was one file).
    pub fn jobs_at_once(&self) -> usize {
        match self.jobs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
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
    /// `-h`/`--help`: print [`help`].
    Help,
    /// `--version`: print [`version`].
    Version,
}

/// The command line as clap sees it; [`parse`] turns it into [`Options`].
#[derive(Parser, Debug)]
#[command(
    name = "runner",
    version,
    about = "Replays every *.dd and *.slt scenario under DIR against the reference engine\n\
             under each configuration x worker count x schedule of DIR/suite.yaml, and\n\
             checks the transcripts against the goldens.",
    after_help = "exit status: 0 all files passed, 1 some failed, 2 usage error",
    disable_help_flag = true,
    disable_version_flag = true
)]
struct Cli {
    /// The scenario directory, e.g. `testdata`
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Goldens directory (default: `goldens` beside DIR)
    #[arg(long, value_name = "DIR")]
    goldens: Option<PathBuf>,
    /// Run matrix (default: DIR/suite.yaml)
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// Only files whose path relative to DIR contains SUBSTR
    #[arg(long, value_name = "SUBSTR")]
    filter: Option<String>,
    /// Only the run RUN of each file, e.g. `shared/workers=2/seed=7` (repeatable; a failure report prints the one to use)
    #[arg(long = "run", value_name = "RUN")]
    runs: Vec<String>,
    /// Only shard I of N (a stable hash of each file's path)
    #[arg(long, value_name = "I/N", value_parser = parse_partition)]
    partition: Option<Partition>,
    /// Check N files at a time (the report keeps path order; default: one per
    /// core)
    #[arg(long, value_name = "N", value_parser = parse_jobs, allow_hyphen_values = true)]
    jobs: Option<usize>,
    /// The report on stdout: text or json (default: text)
    #[arg(long, value_name = "text|json", value_parser = parse_format)]
    format: Option<ReportFormat>,
    /// Also write a JUnit XML report, one case per file x configuration
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Fail a file whose check takes longer than SECS (default 600)
    #[arg(long, value_name = "SECS", value_parser = parse_timeout, allow_hyphen_values = true)]
    timeout: Option<u64>,
    /// Read every .slt file in this dialect: sqllogictest or materialize
    /// (default: as its header says; materialize for a directory without
    /// suite.yaml, a foreign corpus judged by its own results)
    #[arg(long, value_name = "NAME", value_parser = parse_dialect)]
    dialect: Option<Dialect>,
    /// Write goldens that changed (same as REWRITE=1; refused under CI=true)
    #[arg(long)]
    rewrite: bool,
    /// GitHub annotations of failures: github or none (default: github under GITHUB_ACTIONS=true)
    #[arg(long, value_name = "github|none", value_parser = parse_annotations)]
    annotations: Option<bool>,
    /// Print help
    #[arg(short = 'h', long, action = ArgAction::SetTrue)]
    help: bool,
    /// Print version
    #[arg(long, action = ArgAction::SetTrue)]
    version: bool,
}

fn parse_partition(v: &str) -> Result<Partition, String> {
    v.parse()
}

fn parse_jobs(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("--jobs `{v}`: expected a positive integer")),
    }
}

fn parse_timeout(v: &str) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "--timeout `{v}`: expected a positive number of seconds"
        )),
    }
}

fn parse_dialect(v: &str) -> Result<Dialect, String> {
    Dialect::parse(v)
        .ok_or_else(|| format!("--dialect `{v}`: expected `sqllogictest` or `materialize`"))
}

fn parse_format(v: &str) -> Result<ReportFormat, String> {
    match v {
        "text" => Ok(ReportFormat::Text),
        "json" => Ok(ReportFormat::Json),
        other => Err(format!("--format `{other}`: expected `text` or `json`")),
    }
}

fn parse_annotations(v: &str) -> Result<bool, String> {
    match v {
        "github" => Ok(true),
        "none" => Ok(false),
        other => Err(format!(
            "--annotations `{other}`: expected `github` or `none`"
        )),
    }
}

/// The help text, generated from the flag definitions.
pub fn help() -> String {
    Cli::command().render_help().to_string()
}

/// `runner <version>`.
pub fn version() -> String {
    Cli::command().render_version().trim_end().to_string()
}

/// The one-line usage, for usage errors.
pub fn usage() -> String {
    Cli::command().render_usage().to_string()
}

/// Parses the arguments after the program name. Usage errors are one line
/// (the caller exits 2 with them).
pub fn parse(args: &[String]) -> Result<Invocation, String> {
    let argv = std::iter::once("runner".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| message(&e))?;
    if cli.help {
        return Ok(Invocation::Help);
    }
    if cli.version {
        return Ok(Invocation::Version);
    }
    Ok(Invocation::Run(Options {
        scenarios: cli
            .dir
            .ok_or("missing the scenario directory (e.g. `testdata`)")?,
        goldens: cli.goldens,
        suite: cli.suite,
        filter: cli.filter,
        rewrite: cli.rewrite,
        runs: cli.runs,
        partition: cli.partition,
        jobs: cli.jobs.unwrap_or(0),
        format: cli.format.unwrap_or_default(),
        junit: cli.junit,
        timeout: cli.timeout,
        annotations: cli.annotations,
        dialect: cli.dialect,
    }))
}

/// A clap error in the runner's own words.
fn message(e: &clap::Error) -> String {
    let arg = || match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.split(' ').next().unwrap_or(s).to_string(),
        _ => String::new(),
    };
    let value = || match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(s)) => s.clone(),
        _ => String::new(),
    };
    match e.kind() {
        ErrorKind::ValueValidation => match std::error::Error::source(e) {
            Some(source) => source.to_string(),
            None => clap_line(e),
        },
        ErrorKind::InvalidValue if value().is_empty() => format!("`{}` needs a value", arg()),
        ErrorKind::UnknownArgument => {
            let a = arg();
            if a.starts_with('-') && a != "-" {
                format!("unknown option `{a}`")
            } else {
                format!("unexpected argument `{a}`: give one scenario directory")
            }
        }
        ErrorKind::TooManyValues => format!("unknown option `{}={}`", arg(), value()),
        _ => clap_line(e),
    }
}

/// clap's own message, without its `error: ` prefix and usage lines.
fn clap_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// The command that replays only `rel` (relative to DIR) under `runs`
/// (all runs if empty), with this invocation's directories.
pub fn reproduce(options: &Options, rel: &str, runs: &[String]) -> String {
    let mut dir = options.scenarios.display().to_string();
    // A directory named `-x` would read as an option: `./-x` is the same.
    if dir.starts_with('-') {
        dir = format!("./{dir}");
    }
    let mut args = vec![
        "cargo".to_string(),
        "run".into(),
        "-p".into(),
        "runner".into(),
        "--".into(),
        dir,
    ];
    let mut flag = |name: &str, value: String| {
        // `--filter=-dash.dd`: a value that starts with `-` is joined to
        // its flag, or it would read as an option (`unknown option -d`).
        match value.starts_with('-') {
            true => args.push(format!("--{name}={value}")),
            false => args.extend([format!("--{name}"), value]),
        }
    };
    if let Some(g) = &options.goldens {
        flag("goldens", g.display().to_string());
    }
    if let Some(s) = &options.suite {
        flag("suite", s.display().to_string());
    }
    if let Some(d) = options.dialect {
        let name = Dialect::ALL.iter().find(|(x, _)| *x == d).map(|(_, n)| *n);
        flag("dialect", name.unwrap_or_default().to_string());
    }
    flag("filter", rel.to_string());
    for run in runs {
        flag("run", run.clone());
    }
    args.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `arg` as a shell word: plain, in single quotes, or, when it holds a
/// control character (a newline in a file name), as `$'...'` with the
/// character escaped (bash and zsh), so that the line stays one line.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_string()
    } else if arg.chars().any(char::is_control) {
        let mut quoted = String::from("$'");
        for c in arg.chars() {
            match c {
                '\\' | '\'' => quoted.extend(['\\', c]),
                '\n' => quoted.push_str("\\n"),
                '\t' => quoted.push_str("\\t"),
                '\r' => quoted.push_str("\\r"),
                c if c.is_control() => {
                    let mut bytes = [0; 4];
                    for b in c.encode_utf8(&mut bytes).bytes() {
                        quoted.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => quoted.push(c),
            }
        }
        quoted.push('\'');
        quoted
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
        assert_eq!((o.jobs, o.jobs_at_once()), (4, 4));
        // Without --jobs, one file per core.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(Options::default().jobs_at_once(), cores);
        assert_eq!(o.format, ReportFormat::Json);
        assert_eq!(o.junit, Some("junit.xml".into()));
        assert!(p(&["a", "--jobs", "0"]).is_err());
        let Ok(Invocation::Run(o)) = p(&["a", "--timeout", "30"]) else {
            panic!()
        };
        assert_eq!(o.timeout, Some(30));
        let Ok(Invocation::Run(o)) = p(&["a", "--dialect", "materialize"]) else {
            panic!()
        };
        assert_eq!(o.dialect, Some(Dialect::Materialize));
        assert!(p(&["a", "--dialect", "sqlite"]).is_err());
        assert!(p(&["a", "--timeout", "0"]).is_err());
        // A negative value is the flag's error, not an unknown option.
        assert_eq!(
            p(&["a", "--timeout", "-1"]),
            Err("--timeout `-1`: expected a positive number of seconds".into())
        );
        assert_eq!(
            p(&["a", "--jobs", "-2"]),
            Err("--jobs `-2`: expected a positive integer".into())
        );
        assert!(p(&["a", "--format", "xml"]).is_err());
        assert!(p(&["a", "--partition", "4/3"]).is_err());
    }

    #[test]
    fn annotations_are_github_none_or_left_to_the_environment() {
        let annotations = |args: &[&str]| match p(args) {
            Ok(Invocation::Run(o)) => Ok(o.annotations),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(annotations(&["a"]), Ok(None));
        assert_eq!(
            annotations(&["a", "--annotations", "github"]),
            Ok(Some(true))
        );
        assert_eq!(annotations(&["a", "--annotations=none"]), Ok(Some(false)));
        assert_eq!(
            annotations(&["a", "--annotations", "gitlab"]),
            Err("--annotations `gitlab`: expected `github` or `none`".into())
        );
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
        assert_eq!(shell_quote("a\nb's\\"), "$'a\\nb\\'s\\\\'");
        let dashed = Options {
            scenarios: "-suite".into(),
            ..Options::default()
        };
        assert_eq!(
            reproduce(&dashed, "-dash.dd", &[]),
            "cargo run -p runner -- ./-suite --filter=-dash.dd"
        );
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

    #[test]
    fn version_and_help() {
        assert_eq!(p(&["--version"]), Ok(Invocation::Version));
        assert_eq!(version(), format!("runner {}", env!("CARGO_PKG_VERSION")));
        assert_eq!(p(&["--help"]), Ok(Invocation::Help));
        let help = help();
        for flag in [
            "--goldens",
            "--suite",
            "--filter",
            "--run",
            "--partition",
            "--jobs",
            "--format",
            "--junit",
            "--dialect",
            "--rewrite",
            "--annotations",
            "--help",
            "--version",
        ] {
            assert!(help.contains(flag), "{flag} missing from:\n{help}");
        }
    }
}

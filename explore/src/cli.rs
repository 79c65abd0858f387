//! `explore`'s command line, read with clap as `runner`'s and `oracle`'s
//! are: `--help`, `--version`, and a usage error (exit status 2) for an
//! unknown flag, a missing value or a value out of range. The flags, their
//! defaults and their checks are those of the hand parser this replaced,
//! so `.ci/run`, `.ci/mutations` and the nightly workflow call it as they
//! did.

use std::ops::Range;
use std::path::PathBuf;
use std::process::exit;

use clap::{CommandFactory, Parser};
use explore::generate::GenConfig;

/// What the command line asks for.
#[derive(Debug)]
pub struct Options {
    pub seeds: Range<u64>,
    pub jobs: usize,
    /// (k, n): only seeds with `seed % n == k - 1`.
    pub partition: (u64, u64),
    pub out: PathBuf,
    pub config: GenConfig,
    /// Stop taking new seeds once this many failed (a mutation's check).
    pub max_failures: usize,
    /// Stop taking new seeds after this long (a time budget).
    pub seconds: Option<f64>,
    /// (j, m): of the partition's seeds, every m-th from the j-th (the
    /// share of one of `--jobs m` processes).
    pub job: (u64, u64),
    /// `--annotations github|none`: GitHub annotations of findings on or
    /// off (default: on under `GITHUB_ACTIONS=true`).
    pub annotations: Option<bool>,
    /// `--artifact NAME`: the name the workflow uploads `out` as, for the
    /// job summary.
    pub artifact: Option<String>,
}

/// The command line as clap sees it; [`parse`] turns it into [`Options`].
/// A flag given twice takes its last value: `--jobs N` hands each job the
/// parent's arguments followed by `--jobs 1 --job J/N`.
#[derive(Parser, Debug)]
#[command(
    name = "explore",
    version,
    about = "Generates scenarios from a range of seeds, checks each under the suite's\n\
             configurations and against the model, shrinks every failure and writes it\n\
             as a scenario with its golden under OUT/testdata/explore/ and\n\
             OUT/goldens/explore/.",
    after_help = "exit status: 0 no failure, 1 failures (written under --out), 2 usage error or a job that ended without its summary",
    args_override_self = true
)]
struct Cli {
    /// The seeds to explore, B excluded
    #[arg(long, value_name = "A..B", default_value = "0..100", value_parser = seeds)]
    seeds: Range<u64>,
    /// Explore in N processes side by side, each taking every N-th seed
    #[arg(long, value_name = "N", default_value = "1", value_parser = number)]
    jobs: u64,
    /// Only seeds with `seed % N == K - 1` (a CI shard)
    #[arg(long, value_name = "K/N", default_value = "1/1", value_parser = fraction)]
    partition: (u64, u64),
    /// Of the partition's seeds, every M-th from the J-th: one job's share,
    /// set by `--jobs`
    #[arg(long, value_name = "J/M", default_value = "1/1", value_parser = fraction, hide = true)]
    job: (u64, u64),
    /// Where failures are written
    #[arg(long, value_name = "DIR", default_value = "explore-out")]
    out: PathBuf,
    /// Steps per scenario after its tables are created
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().steps as u64, value_parser = number)]
    steps: u64,
    /// Stop taking new seeds once N failed
    #[arg(long, value_name = "N", value_parser = positive)]
    max_failures: Option<u64>,
    /// Stop taking new seeds after N seconds
    #[arg(long, value_name = "N", value_parser = positive)]
    seconds: Option<u64>,
    /// GitHub annotations of findings: github or none (default: github under GITHUB_ACTIONS=true)
    #[arg(long, value_name = "github|none", value_parser = annotations)]
    annotations: Option<bool>,
    /// The name the workflow uploads --out as, which the job summary gives for each finding
    #[arg(long, value_name = "NAME")]
    artifact: Option<String>,
}

/// A count or a number of seconds.
fn number(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| format!("not a number: {text}"))
}

/// `github` (on) or `none` (off).
fn annotations(text: &str) -> Result<bool, String> {
    match text {
        "github" => Ok(true),
        "none" => Ok(false),
        _ => Err(format!("takes github or none, not {text}")),
    }
}

/// A count or a number of seconds of at least 1: 0 would explore nothing.
fn positive(text: &str) -> Result<u64, String> {
    match number(text)? {
        0 => Err("must be at least 1 (0 would explore nothing)".to_string()),
        n => Ok(n),
    }
}

/// `A..B` with A < B: an empty range would explore nothing.
fn seeds(text: &str) -> Result<Range<u64>, String> {
    let (a, b) = text.split_once("..").ok_or("takes A..B")?;
    let range = number(a)?..number(b)?;
    match range.is_empty() {
        true => Err(format!(
            "takes A..B with A < B (B excluded), not {text}: no seed to explore"
        )),
        false => Ok(range),
    }
}

impl Options {
    /// This process's seeds, drawn one at a time in constant memory
    /// (`--seeds 0..18446744073709551615` once collected every seed before
    /// the first was explored): of `--seeds`, those of `--partition`, and
    /// of those every M-th from the J-th (`--job J/M`).
    pub fn job_seeds(&self) -> impl Iterator<Item = u64> {
        let (first, step, end) = self.job_progression();
        (0u128..)
            .map(move |i| first + i * step)
            .take_while(move |&s| s < end)
            .map(|s| s as u64)
    }

    /// How many seeds [`Options::job_seeds`] draws, without drawing them.
    pub fn job_seed_count(&self) -> u128 {
        let (first, step, end) = self.job_progression();
        match first < end {
            true => (end - 1 - first) / step + 1,
            false => 0,
        }
    }

    /// This process's seeds as an arithmetic progression: the first, the
    /// step, and the end (excluded), in u128 so that nothing overflows.
    fn job_progression(&self) -> (u128, u128, u128) {
        let (k, n) = (u128::from(self.partition.0), u128::from(self.partition.1));
        let (j, m) = (u128::from(self.job.0), u128::from(self.job.1));
        let (a, b) = (u128::from(self.seeds.start), u128::from(self.seeds.end));
        // The range's first seed in the partition, then the job's first.
        let first = a + (k - 1 + n - a % n) % n + (j - 1) * n;
        (first, m * n, b)
    }
}

/// `K/N` with 1 <= K <= N.
fn fraction(text: &str) -> Result<(u64, u64), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)));
    match parsed {
        Some((k, n)) if k >= 1 && k <= n => Ok((k, n)),
        _ => Err(format!("takes K/N with 1 <= K <= N, not {text}")),
    }
}

/// The arguments after the program name as [`Options`], or clap's error
/// (usage errors exit 2; `--help` and `--version` are errors that print to
/// stdout and exit 0).
pub fn try_parse(args: &[String]) -> Result<Options, clap::Error> {
    let argv = std::iter::once("explore".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv)?;
    Ok(Options {
        seeds: cli.seeds,
        jobs: cli.jobs.max(1) as usize,
        partition: cli.partition,
        out: cli.out,
        config: GenConfig {
            steps: cli.steps as usize,
            ..GenConfig::default()
        },
        max_failures: cli
            .max_failures
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        seconds: cli.seconds.map(|s| s as f64),
        job: cli.job,
        annotations: cli.annotations,
        artifact: cli.artifact,
    })
}

/// [`try_parse`], exiting as clap does when it cannot give [`Options`].
pub fn parse(args: &[String]) -> Options {
    try_parse(args).unwrap_or_else(|e| e.exit())
}

/// Ends the explorer for a reason found after parsing (no executable to
/// start jobs with), with the usage line, as a usage error does.
pub fn fail(message: &str) -> ! {
    eprintln!("explore: {message}");
    eprintln!("{}", Cli::command().render_usage());
    exit(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Options, clap::Error> {
        try_parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_are_the_hand_parsers() {
        let o = p(&[]).unwrap();
        assert_eq!(o.seeds, 0..100);
        assert_eq!((o.jobs, o.partition, o.job), (1, (1, 1), (1, 1)));
        assert_eq!(o.out, PathBuf::from("explore-out"));
        assert_eq!(o.config.steps, GenConfig::default().steps);
        assert_eq!((o.max_failures, o.seconds), (usize::MAX, None));
    }

    #[test]
    fn every_flag() {
        let o = p(&[
            "--seeds",
            "5..9",
            "--jobs",
            "3",
            "--partition",
            "2/8",
            "--out",
            "o",
            "--steps",
            "12",
            "--max-failures",
            "1",
            "--seconds",
            "60",
        ])
        .unwrap();
        assert_eq!(o.seeds, 5..9);
        assert_eq!((o.jobs, o.partition), (3, (2, 8)));
        assert_eq!(o.out, PathBuf::from("o"));
        assert_eq!(o.config.steps, 12);
        assert_eq!((o.max_failures, o.seconds), (1, Some(60.0)));
        // Zero jobs mean one, as they did.
        assert_eq!(p(&["--jobs", "0"]).unwrap().jobs, 1);
    }

    /// A job gets its parent's arguments and then its own `--jobs 1
    /// --job J/N`: the last value of a flag wins.
    #[test]
    fn a_jobs_own_flags_come_last_and_win() {
        let o = p(&[
            "--seeds", "0..16", "--jobs", "2", "--jobs", "1", "--job", "2/2",
        ])
        .unwrap();
        assert_eq!((o.jobs, o.job, o.seeds), (1, (2, 2), 0..16));
    }

    #[test]
    fn values_out_of_range_are_usage_errors() {
        use clap::error::ErrorKind;
        for args in [
            &["--seeds", "3"][..],
            &["--seeds", "a..3"],
            &["--partition", "3/2"],
            &["--partition", "0/2"],
            &["--job", "x"],
            &["--jobs", "many"],
            &["--seconds", "1.5"],
            // Nothing to explore: once "0 failures", exit 0.
            &["--seeds", "10..5"],
            &["--seeds", "5..5"],
            &["--seconds", "0"],
            &["--max-failures", "0"],
        ] {
            let e = p(args).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{args:?}");
            assert_eq!(e.exit_code(), 2);
        }
        assert_eq!(
            p(&["--bogus"]).unwrap_err().kind(),
            ErrorKind::UnknownArgument
        );
        assert_eq!(
            p(&["--out"]).unwrap_err().kind(),
            ErrorKind::InvalidValue,
            "a flag without its value"
        );
    }

    /// The seeds of a partition's job, drawn lazily, are those the
    /// filters over the whole range gave; a range to u64::MAX draws its
    /// first seeds at once.
    #[test]
    fn a_jobs_seeds_are_drawn_lazily() {
        for (seeds, partition, job) in [
            ("0..100", "1/1", "1/1"),
            ("3..50", "2/3", "1/2"),
            ("3..50", "3/3", "2/2"),
            ("7..8", "1/4", "1/3"),
            ("0..5", "1/1", "3/3"),
        ] {
            let o = p(&["--seeds", seeds, "--partition", partition, "--job", job]).unwrap();
            let (k, n) = o.partition;
            let (j, m) = o.job;
            let expected: Vec<u64> = o
                .seeds
                .clone()
                .filter(|s| s % n == k - 1)
                .enumerate()
                .filter(|(i, _)| *i as u64 % m == j - 1)
                .map(|(_, s)| s)
                .collect();
            let drawn: Vec<u64> = o.job_seeds().collect();
            assert_eq!(drawn, expected, "{seeds} {partition} {job}");
            assert_eq!(o.job_seed_count(), expected.len() as u128);
        }
        let o = p(&["--seeds", "0..18446744073709551615", "--job", "2/2"]).unwrap();
        assert_eq!(o.job_seeds().take(3).collect::<Vec<_>>(), [1, 3, 5]);
        assert_eq!(o.job_seed_count(), u128::from(u64::MAX / 2));
        let top = p(&["--seeds", "18446744073709551613..18446744073709551615"]).unwrap();
        assert_eq!(
            top.job_seeds().collect::<Vec<_>>(),
            [u64::MAX - 2, u64::MAX - 1]
        );
    }
}

//! The report for a reviewer on GitHub: under GitHub Actions, an error
//! annotation per failing file on the directive where it first fails
//! ([`annotation`], so a pull request shows it on that line of its diff),
//! and a Markdown job summary appended to the file `GITHUB_STEP_SUMMARY`
//! names ([`summary`]: the totals, a table of the failing files with their
//! reproduce lines, and a short diff of each, collapsed and bounded).
//! Outside GitHub Actions nothing here is written: a local run prints what
//! it always printed. [`command`] and [`markdown`] hold the escaping, which
//! the oracle and the explorer use for their own findings.

pub mod command;
pub mod markdown;

use crate::check::site::Kind;
use crate::check::FileReport;
use command::Annotation;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Lines of a failure's details in its annotation.
const ANNOTATION_LINES: usize = 20;
/// Bytes of a failure's details in its annotation.
const ANNOTATION_BYTES: usize = 2_000;
/// Lines of a failing file's details in the job summary.
pub const DETAILS_LINES: usize = 40;
/// Bytes of a failing file's details in the job summary.
pub const DETAILS_BYTES: usize = 4_000;
/// Failing files shown in the summary's table.
pub const TABLE_ROWS: usize = 100;
/// Failing files whose details the summary shows.
pub const DETAILED: usize = 20;

/// Whether to write annotations: `--annotations` if given, else whether
/// `GITHUB_ACTIONS` is `true` (as GitHub sets it in every step).
pub fn annotating(flag: Option<bool>, github_actions: Option<&str>) -> bool {
    flag.unwrap_or(github_actions == Some("true"))
}

/// The job summary's file: `GITHUB_STEP_SUMMARY`, unless unset or empty.
pub fn summary_file(variable: Option<&OsStr>) -> Option<PathBuf> {
    variable.filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Appends `markdown` to the job summary at `path` (GitHub shows each
/// step's, in order, on the run's page).
pub fn append(path: &Path, markdown: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut file| file.write_all(markdown.as_bytes()))
        .map_err(|e| format!("cannot append the job summary to {}: {e}", path.display()))
}

/// The runs that show a file's failure: `a vs b` for a divergence.
fn runs(report: &FileReport) -> Option<String> {
    let runs: Vec<String> = report.failing_runs.iter().map(|r| r.to_string()).collect();
    let divergence = report.site.as_ref().map(|s| s.kind) == Some(Kind::Divergence);
    let joined = runs.join(if divergence { " vs " } else { ", " });
    (!runs.is_empty()).then_some(joined)
}

/// Every problem's summary, as the `FAIL path: ...` line has them.
fn reasons(report: &FileReport) -> String {
    let summaries: Vec<&str> = report.problems.iter().map(|p| p.summary.as_str()).collect();
    summaries.join("; ")
}

/// Every problem's details, one after the other.
fn details(report: &FileReport) -> String {
    let blocks: Vec<&str> = report
        .problems
        .iter()
        .map(|p| p.details.trim_end())
        .filter(|d| !d.is_empty())
        .collect();
    blocks.join("\n")
}

/// `(N more lines in the step's log)`, if `left` lines were left out.
fn more(left: usize) -> String {
    match left {
        0 => String::new(),
        n => format!("({n} more line(s) in the step's log)\n"),
    }
}

/// The kind of a failing file's first failure.
fn kind(report: &FileReport) -> &'static str {
    report.site.as_ref().map_or("failure", |s| s.kind.label())
}

/// The `::error` command for a failing file (`None` if it passed): on its
/// first failure's directive (line 1 for a failure of the whole file),
/// with what failed, where, under which runs, the reproduce line and the
/// beginning of the details.
pub fn annotation(report: &FileReport) -> Option<String> {
    if report.passed() {
        return None;
    }
    let site = report.site.as_ref();
    let mut message = format!("{}\n", reasons(report));
    match (
        site.and_then(|s| s.line),
        site.and_then(|s| s.directive.as_deref()),
    ) {
        (_, Some(directive)) => message.push_str(&format!("at {directive}\n")),
        (Some(line), None) => message.push_str(&format!("at {}:{line}\n", report.path)),
        (None, None) => message.push_str("(the whole file)\n"),
    }
    if let Some(runs) = runs(report) {
        let divergence = site.map(|s| s.kind) == Some(Kind::Divergence);
        let noun = if divergence {
            "configurations"
        } else {
            "configuration"
        };
        message.push_str(&format!("{noun}: {runs}\n"));
    }
    if let Some(command) = &report.reproduce {
        message.push_str(&format!("reproduce: {command}\n"));
    }
    let (shown, left) = markdown::bounded(&details(report), ANNOTATION_LINES, ANNOTATION_BYTES);
    if !shown.is_empty() {
        message.push('\n');
        message.push_str(&shown);
        message.push_str(&more(left));
    }
    let title = format!("runner: {}", kind(report));
    let annotation = Annotation {
        file: Some(&report.path),
        line: Some(site.and_then(|s| s.line).unwrap_or(1)),
        title: &title,
        message: message.trim_end(),
    };
    Some(annotation.command())
}

/// Where a failing file first fails, for the summary's table.
fn place(report: &FileReport) -> String {
    let Some(site) = &report.site else {
        return "—".to_string();
    };
    let prefix = format!("{}:", report.path);
    match (site.line, &site.directive) {
        (Some(line), Some(directive)) => {
            let text = directive.strip_prefix(&prefix).unwrap_or(directive);
            let text = text.strip_prefix(&format!("{line}: ")).unwrap_or(text);
            format!("line {line}: {}", markdown::code(text))
        }
        (Some(line), None) => format!("line {line}"),
        _ => "the whole file".to_string(),
    }
}

/// The job summary of a suite run (`scope` names it, e.g. `runner
/// testdata --partition 1/3`): one line if every file passed, else the
/// totals, a table of the failing files and their details, bounded.
pub fn summary(scope: &str, reports: &[FileReport], passed: usize, failed: usize) -> String {
    let totals = format!(
        "### {}: {passed} passed, {failed} failed\n",
        markdown::code(scope)
    );
    let failing: Vec<&FileReport> = reports.iter().filter(|r| !r.passed()).collect();
    if failing.is_empty() {
        return totals;
    }
    let dash = || "—".to_string();
    let rows: Vec<Vec<String>> = failing
        .iter()
        .take(TABLE_ROWS)
        .map(|r| {
            vec![
                markdown::code(&r.path),
                markdown::text(kind(r)),
                runs(r).map_or_else(dash, |runs| markdown::code(&runs)),
                place(r),
                r.reproduce.as_deref().map_or_else(dash, markdown::code),
            ]
        })
        .collect();
    let head = [
        "file",
        "failure",
        "configuration",
        "first fails at",
        "reproduce",
    ];
    let mut out = format!("{totals}\n{}", markdown::table(&head, &rows));
    if failing.len() > TABLE_ROWS {
        let left = failing.len() - TABLE_ROWS;
        out.push_str(&format!(
            "\n{left} more failing file(s) left out of the table: the step's log lists every one.\n"
        ));
    }
    out.push_str("\nA reproduce line replays only the runs that show the failure; drop its `--run`s and add `--rewrite` to rewrite the golden, then read the change as a claim.\n");
    let mut detailed = 0;
    for r in &failing {
        let text = details(r);
        if text.is_empty() {
            continue;
        }
        if detailed == DETAILED {
            out.push_str(
                "\nThe details of further failing files are left out: the step's log has them.\n",
            );
            break;
        }
        detailed += 1;
        let (shown, left) = markdown::bounded(&text, DETAILS_LINES, DETAILS_BYTES);
        let language = match r.site.as_ref().map(|s| s.kind) {
            Some(Kind::GoldenDiff | Kind::Divergence) => "diff",
            _ => "text",
        };
        let summary = format!(
            "<code>{}</code>: {}",
            markdown::html(&r.path),
            markdown::html(&reasons(r))
        );
        let body = markdown::fenced(language, &shown) + &more(left);
        out.push('\n');
        out.push_str(&markdown::details(&summary, &body));
    }
    out
}

/// The job summary of a run that could not start (a usage error).
pub fn could_not_run(scope: &str, message: &str) -> String {
    format!(
        "### {}: could not run: {}\n",
        markdown::code(scope),
        markdown::text(message)
    )
}

/// What a suite run writes for GitHub, decided once from the command line
/// and the environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Github {
    /// Whether to write annotations (see [`annotating`]).
    pub annotate: bool,
    /// Where to append the job summary, if anywhere (see [`summary_file`]).
    pub summary: Option<PathBuf>,
    /// What ran, for the summary's heading: `runner testdata --partition 1/3`.
    pub scope: String,
}

impl Github {
    /// The scope of a run over `dir`, narrowed by `--filter` and `--partition`.
    pub fn scope(dir: &Path, filter: Option<&str>, partition: Option<String>) -> String {
        let mut scope = format!("runner {}", dir.display());
        if let Some(filter) = filter {
            scope.push_str(&format!(" --filter {filter}"));
        }
        if let Some(partition) = partition {
            scope.push_str(&format!(" --partition {partition}"));
        }
        scope
    }

    /// Writes the annotation of `report`, if it failed and annotations are
    /// on: to `out` after the text report's lines for the file, or to
    /// stderr when `out` holds a JSON document (`text` false).
    pub fn annotate(
        &self,
        report: &FileReport,
        text: bool,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        let Some(command) = annotation(report).filter(|_| self.annotate) else {
            return Ok(());
        };
        if !text {
            eprint!("{command}");
            return Ok(());
        }
        out.write_all(command.as_bytes())
            .map_err(|e| format!("cannot write the report: {e}"))
    }

    /// Appends the job summary of the checked `reports`, if there is a
    /// summary file; a summary that cannot be written is a warning on
    /// stderr, and the suite's verdict stands.
    pub fn summarize(&self, reports: &[FileReport], passed: usize, failed: usize) {
        self.append(&summary(&self.scope, reports, passed, failed));
    }

    /// Appends the one-line summary of a run that could not start.
    pub fn could_not_run(&self, message: &str) {
        self.append(&could_not_run(&self.scope, message));
    }

    fn append(&self, markdown: &str) {
        if let Some(path) = &self.summary {
            if let Err(e) = append(path, markdown) {
                eprintln!("runner: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::site::Site;
    use crate::check::Problem;

    /// A failing file with a golden diff of `lines` lines.
    fn failing(i: usize, lines: usize) -> FileReport {
        let diff: Vec<String> = (0..lines).map(|l| format!("-{l}\n+{l}!")).collect();
        FileReport {
            path: format!("testdata/{i:03}.dd"),
            problems: vec![Problem {
                summary: "transcript differs".into(),
                details: diff.join("\n"),
            }],
            site: Some(Site::at(
                Kind::GoldenDiff,
                3,
                format!("testdata/{i:03}.dd:3: query"),
            )),
            reproduce: Some(format!(
                "cargo run -p runner -- testdata --filter {i:03}.dd"
            )),
            ..FileReport::default()
        }
    }

    #[test]
    fn the_summary_is_bounded_and_says_what_it_left_out() {
        let reports: Vec<FileReport> = (0..150).map(|i| failing(i, 100)).collect();
        let text = summary("runner testdata", &reports, 0, 150);
        let rows = text.lines().filter(|l| l.starts_with("| <code>")).count();
        assert_eq!(rows, TABLE_ROWS);
        assert!(
            text.contains("\n50 more failing file(s) left out of the table"),
            "{text}"
        );
        assert_eq!(text.matches("<details>").count(), DETAILED);
        assert!(text.contains("The details of further failing files are left out"));
        // Each block: 40 of its 200 lines, and how many more there are.
        assert_eq!(
            text.matches("(160 more line(s) in the step's log)").count(),
            DETAILED
        );
        assert!(text.len() < 200_000, "{} bytes", text.len());
    }

    #[test]
    fn the_first_failure_says_where_it_is_and_how_to_reproduce_it() {
        let report = failing(7, 1);
        let command = annotation(&report).unwrap();
        assert_eq!(
            command,
            "::error file=testdata/007.dd,line=3,title=runner%3A golden diff::transcript differs%0Aat testdata/007.dd:3: query%0Areproduce: cargo run -p runner -- testdata --filter 007.dd%0A%0A-0%0A+0!\n"
        );
        let passed = FileReport::default();
        assert_eq!(annotation(&passed), None);
        assert!(annotating(None, Some("true")));
        assert!(!annotating(None, Some("false")) && !annotating(None, None));
        assert!(!annotating(Some(false), Some("true")) && annotating(Some(true), None));
        assert_eq!(summary_file(Some(OsStr::new(""))), None);
    }
}

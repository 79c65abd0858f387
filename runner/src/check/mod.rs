//! Checking one scenario file: parse it, replay it under every run of its
//! matrix, and hold the runs to each other, to their witnesses and to the
//! golden (rewriting the golden when asked and allowed).

pub mod diff;
pub mod divergence;
mod foreign;
pub mod golden;
pub mod judge;
pub mod rewrite;
pub mod site;
pub mod verdict;
pub mod witness;

use crate::format::Transcript;
use crate::format::{self, Format, Script};
use crate::run::replay::{self, RunPanic, RunRecord, Stage};
use crate::run::target::Factory;
use crate::suite::matrix::{self, Run};
use crate::suite::Suite;
use diff::Landmark;
use divergence::Divergence;
use golden::Golden;
use site::{Kind, Site};
use std::path::Path;
use verdict::Verdict;

/// One reason a file fails.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// One line, for the `FAIL path: ...` line.
    pub summary: String,
    /// Further lines, printed under it (may be empty).
    pub details: String,
}

impl Problem {
    fn new(summary: impl Into<String>, details: impl Into<String>) -> Problem {
        Problem {
            summary: summary.into(),
            details: details.into(),
        }
    }
}

/// The verdict on one file. Serializable, so a file checked in a child
/// process reports it to the parent (see `isolate`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileReport {
    /// The file as shown to the user.
    pub path: String,
    /// Empty when the file passes.
    pub problems: Vec<Problem>,
    /// The golden written in rewrite mode, if any.
    pub written: Option<String>,
    /// In rewrite mode, the golden this check would write (every run
    /// checked clean, and the golden missing or other): written by the
    /// runner's own process ([`rewrite::apply`]), never by a child.
    #[serde(default)]
    pub proposed: Option<String>,
    /// The runs that show the failure (empty when the file fails before any
    /// run, or passes).
    pub failing_runs: Vec<Run>,
    /// Per configuration the file ran under, in suite order.
    pub configurations: Vec<(String, Verdict)>,
    /// The command that reproduces the failure (set by the caller, which
    /// knows the command line).
    pub reproduce: Option<String>,
    /// Where and how the first of `problems` shows (`None` when the file
    /// passes).
    #[serde(default)]
    pub site: Option<Site>,
    /// A foreign file's records by verdict (see [`judge`]).
    #[serde(default)]
    pub judged: Option<judge::Judged>,
}

impl FileReport {
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }

    /// Adds a problem; the first one added is where the file fails first.
    pub fn fail(&mut self, problem: Problem, site: Site) {
        if self.problems.is_empty() {
            self.site = Some(site);
        }
        self.problems.push(problem);
    }
}

/// What every file is checked with.
pub struct Checker<'a> {
    pub suite: &'a Suite,
    pub factory: &'a Factory<'a>,
    /// Rewrite mode: write goldens that differ (or are missing) for clean files.
    pub rewrite: bool,
    /// Which runs of each file's matrix to replay.
    pub selection: Selection,
}

/// A subset of a file's runs: to reproduce one run, or to check one
/// configuration as its own test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only this configuration's runs.
    pub configuration: Option<String>,
    /// Only these runs, as `Run` displays them (`shared/workers=2/seed=7`); empty: all.
    pub runs: Vec<String>,
}

impl Selection {
    pub fn keeps(&self, run: &Run) -> bool {
        self.configuration
            .as_ref()
            .is_none_or(|c| *c == run.configuration)
            && (self.runs.is_empty() || self.runs.contains(&run.to_string()))
    }

    /// Whether every run of a file is kept: only such a check may write
    /// its golden, since runs it skipped could diverge or fail a witness.
    pub fn is_all(&self) -> bool {
        self.configuration.is_none() && self.runs.is_empty()
    }

    fn keeps_configuration(&self, name: &str) -> bool {
        self.configuration.as_ref().is_none_or(|c| c == name)
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = &self.configuration {
            parts.push(format!("configuration `{c}`"));
        }
        if !self.runs.is_empty() {
            parts.push(format!("--run {}", self.runs.join(", ")));
        }
        parts.join("; ")
    }
}

/// One scenario file and its golden.
pub struct FileSpec<'a> {
    pub scenario: &'a Path,
    pub scenario_shown: String,
    pub golden: &'a Path,
    pub golden_shown: String,
}

impl Checker<'_> {
    /// Checks one file; never panics on a malformed file or a panicking engine.
    pub fn check(&self, spec: &FileSpec) -> FileReport {
        if self.suite.corpus.foreign {
            return self.check_foreign(spec);
        }
        let mut report = FileReport {
            path: spec.scenario_shown.clone(),
            ..FileReport::default()
        };
        // Failures of the file that no run is to blame for.
        let mut general = Vec::new();
        // A golden that cannot be read (a directory, no permission) is
        // that one failure, not also "no golden" and a diff against none.
        let (golden, unreadable_golden) = match golden::read(spec.golden) {
            Ok(g) => (g, false),
            Err(e) => {
                general.push(e.clone());
                report.fail(Problem::new(e, ""), Site::file(Kind::Unreadable));
                (Golden::Missing, true)
            }
        };
        let missing_golden = |report: &mut FileReport| {
            if golden == Golden::Missing && !unreadable_golden {
                report.fail(self.missing_golden(spec), Site::file(Kind::NoGolden));
            }
        };

        let (script, runs) = match self.read(spec) {
            Ok(p) => p,
            Err((site, message)) => {
                report.fail(Problem::new(message, ""), site);
                missing_golden(&mut report);
                self.unreadable(&mut report);
                return report;
            }
        };
        let Some(records) = self.replay_all(spec, &script, &runs, &mut report) else {
            missing_golden(&mut report);
            return report;
        };

        let reference = divergence::reference(&records, script.blocks.len());
        let reference = unrun_from_golden(reference, spec, &golden);
        let transcript = script.transcript(&reference);
        let landmarks = landmarks(&spec.scenario_shown, &script, &transcript);

        diverged(spec, &script, &records, &reference, &golden, &mut report);
        if !transcript.unwritable.is_empty() {
            let lines: Vec<String> = transcript
                .unwritable
                .iter()
                .map(|i| {
                    let why = match script.format {
                        Format::Materialize(_) => "the record's form cannot hold its outcome (Materialize's rewrite refuses it too)",
                        _ => "the output has a `----` line last or two in a row, which would end its block early",
                    };
                    format!("{}:{}: {why}", spec.scenario_shown, script.blocks[*i].directive.line)
                })
                .collect();
            let summary = format!(
                "{} output(s) cannot be written in the file's format",
                lines.len()
            );
            general.push(summary.clone());
            let first = transcript.unwritable[0];
            let site = block_site(Kind::Unwritable, &spec.scenario_shown, &script, first);
            report.fail(Problem::new(summary, lines.join("\n")), site);
        }
        if !transcript.unmet.is_empty() {
            let summary = format!("{} included record(s) do not hold", transcript.unmet.len());
            general.push(summary.clone());
            let problem = Problem::new(summary, transcript.unmet.join("\n"));
            report.fail(problem, Site::file(Kind::Unmet));
        }
        witnesses(&records, &mut report);

        let clean = report.problems.is_empty();
        let up_to_date = matches!(&golden, Golden::Present(g) if *g == transcript.text);
        let mut golden_text = match &golden {
            Golden::Present(g) => Some(g.as_str()),
            Golden::Missing => None,
        };
        if !up_to_date && !unreadable_golden {
            if self.rewrite && clean && self.selection.is_all() {
                report.proposed = Some(transcript.text.clone());
                golden_text = Some(&transcript.text);
            } else {
                let block = first_differing(&golden, &transcript);
                let site = golden_site(spec, &script, &golden, block);
                // A run that ran the first differing directive shows the
                // difference (one whose `configs=` skipped it would not).
                let shows = block.and_then(|b| records.iter().find(|r| r.outputs[b].is_some()));
                let problem = self.golden_problem(spec, &golden, &transcript, &landmarks);
                report.fail(problem, site);
                if report.failing_runs.is_empty() {
                    report.failing_runs = vec![shows.unwrap_or(&records[0]).run.clone()];
                }
            }
        }
        report.configurations = verdict::per_configuration(
            &records,
            |r| {
                script
                    .transcript(&divergence::outputs_of(r, &reference))
                    .text
            },
            golden_text,
            &general,
        );
        report
    }

    /// The transcript does not equal the golden (or there is none).
    fn golden_problem(
        &self,
        spec: &FileSpec,
        golden: &Golden,
        transcript: &Transcript,
        landmarks: &[Landmark],
    ) -> Problem {
        let not_rewritten = if self.rewrite {
            " (not rewritten: the file has other failures)"
        } else {
            ""
        };
        match golden {
            Golden::Missing => self.missing_golden(spec),
            Golden::Present(g) => Problem::new(
                format!(
                    "transcript differs from {}{not_rewritten}",
                    spec.golden_shown
                ),
                diff::unified(
                    &format!("{} (golden)", spec.golden_shown),
                    g,
                    &format!("{} (replayed)", spec.scenario_shown),
                    &transcript.text,
                    landmarks,
                ),
            ),
        }
    }

    /// A missing golden that this invocation does not create.
    fn missing_golden(&self, spec: &FileSpec) -> Problem {
        let hint = if self.rewrite {
            "not created: the file has other failures"
        } else {
            "a new scenario gets one with REWRITE=1"
        };
        Problem::new(format!("no golden at {} ({hint})", spec.golden_shown), "")
    }

    /// The file read and prepared (see [`Checker::prepare`]), or the first
    /// error and where it is.
    fn read(&self, spec: &FileSpec) -> Result<(Script, Vec<Run>), (Site, String)> {
        let shown = &spec.scenario_shown;
        let unreadable = |message: String| (Site::file(Kind::Unreadable), message);
        std::fs::read(spec.scenario)
            .map_err(|e| unreadable(format!("{shown}: cannot read: {e}")))
            .and_then(|bytes| {
                format::text_of(bytes).ok_or_else(|| unreadable(format!("{shown}: not UTF-8")))
            })
            .and_then(|text| self.prepare(spec, &text))
    }

    /// Every selected configuration failed for the file's problems so far
    /// (it could not be read or prepared).
    fn unreadable(&self, report: &mut FileReport) {
        let names = self.suite.configurations.iter().map(|c| c.name.clone());
        let reasons: Vec<String> = report.problems.iter().map(|p| p.summary.clone()).collect();
        report.configurations = verdict::all_failed(
            names.filter(|n| self.selection.keeps_configuration(n)),
            &reasons,
        );
    }

    /// Replays every run; `None` when one panicked, which `report` then says.
    fn replay_all(
        &self,
        spec: &FileSpec,
        script: &Script,
        runs: &[Run],
        report: &mut FileReport,
    ) -> Option<Vec<RunRecord>> {
        let mut records = Vec::with_capacity(runs.len());
        for run in runs {
            match replay::replay(script, run, self.factory) {
                Ok(r) => records.push(r),
                Err(p) => {
                    let (problem, site) = panic_problem(&spec.scenario_shown, script, &p);
                    report.fail(problem, site);
                    report.configurations = verdict::after_panic(runs, &p);
                    report.failing_runs = vec![p.run.clone()];
                    return None;
                }
            }
        }
        Some(records)
    }

    /// Header, directives and the selected runs of a file, or the first
    /// error and where it is.
    fn prepare(&self, spec: &FileSpec, text: &str) -> Result<(Script, Vec<Run>), (Site, String)> {
        let shown = &spec.scenario_shown;
        let (script, runs) = matrix::script_and_runs(spec.scenario, shown, self.suite, text)
            .map_err(|message| {
                let site = Site {
                    line: site::line_of_error(&message, shown),
                    ..Site::file(Kind::Malformed)
                };
                (site, message)
            })?;
        let runs: Vec<Run> = runs
            .into_iter()
            .filter(|r| self.selection.keeps(r))
            .collect();
        if runs.is_empty() {
            let message = format!(
                "{shown}: none of its runs is selected ({})",
                self.selection.describe()
            );
            return Err((Site::file(Kind::NoRun), message));
        }
        Ok((script, runs))
    }
}

/// Blocks that no selected run executed (every run's configuration is left
/// out by their `configs=`, e.g. under `cargo test`'s one-configuration
/// trials) keep the golden's output: this selection cannot check it, and
/// must neither report it missing nor rewrite it away.
fn unrun_from_golden(
    mut reference: Vec<Option<Vec<String>>>,
    spec: &FileSpec,
    golden: &Golden,
) -> Vec<Option<Vec<String>>> {
    let Golden::Present(text) = golden else {
        return reference;
    };
    if reference.iter().all(Option::is_some) {
        return reference;
    }
    let Ok(claimed) = Script::parse(spec.golden, &spec.golden_shown, text) else {
        return reference;
    };
    // (Only datadriven directives carry `configs=`.)
    if matches!(claimed.format, Format::Datadriven) && claimed.blocks.len() == reference.len() {
        for (output, block) in reference.iter_mut().zip(&claimed.blocks) {
            if output.is_none() {
                *output = Some(block.output.clone());
            }
        }
    }
    reference
}

/// Where the runs split, if they did, into `report`.
fn diverged(
    spec: &FileSpec,
    script: &Script,
    records: &[RunRecord],
    reference: &[Option<Vec<String>>],
    golden: &Golden,
    report: &mut FileReport,
) {
    let Some(d) = divergence::find(records) else {
        return;
    };
    let problem = divergence_problem(&spec.scenario_shown, script, records, reference, &d, golden);
    let site = block_site(Kind::Divergence, &spec.scenario_shown, script, d.block);
    report.fail(problem, site);
    report.failing_runs = vec![
        records[d.groups[0].runs[0]].run.clone(),
        records[d.groups[1].runs[0]].run.clone(),
    ];
}

/// The runs whose witness disproves their configuration, into `report`.
fn witnesses(records: &[RunRecord], report: &mut FileReport) {
    let failures: Vec<(&RunRecord, String)> = records
        .iter()
        .filter_map(|r| witness::check(r).err().map(|m| (r, m)))
        .collect();
    if failures.is_empty() {
        return;
    }
    let mut configs: Vec<&str> = Vec::new();
    for (r, _) in &failures {
        if !configs.contains(&r.run.configuration.as_str()) {
            configs.push(&r.run.configuration);
        }
    }
    let messages: Vec<&str> = failures.iter().map(|(_, m)| m.as_str()).collect();
    let problem = Problem::new(
        format!(
            "witness failed under {} ({} of {} runs)",
            configs.join(", "),
            failures.len(),
            records.len()
        ),
        messages.join("\n"),
    );
    report.fail(problem, Site::file(Kind::Witness));
    if report.failing_runs.is_empty() {
        report.failing_runs = vec![failures[0].0.run.clone()];
    }
}

/// `path:line: directive`, naming a block in reports.
fn block_label(shown: &str, script: &Script, block: usize) -> String {
    let d = &script.blocks[block].directive;
    format!("{shown}:{}: {}", d.line, d.text)
}

fn landmarks(shown: &str, script: &Script, transcript: &Transcript) -> Vec<Landmark> {
    transcript
        .directive_lines
        .iter()
        .enumerate()
        .map(|(i, &line)| Landmark {
            line,
            label: block_label(shown, script, i),
        })
        .collect()
}

/// The block where `transcript` first leaves the golden, if it is at one.
fn first_differing(golden: &Golden, transcript: &Transcript) -> Option<usize> {
    match golden {
        Golden::Present(g) => {
            site::first_differing_block(g, &transcript.text, &transcript.directive_lines)
        }
        Golden::Missing => None,
    }
}

/// Where a transcript that is not the golden first shows it: at `block`,
/// the first differing one.
fn golden_site(spec: &FileSpec, script: &Script, golden: &Golden, block: Option<usize>) -> Site {
    if *golden == Golden::Missing {
        return Site::file(Kind::NoGolden);
    }
    match block {
        Some(block) => block_site(Kind::GoldenDiff, &spec.scenario_shown, script, block),
        None => Site::file(Kind::GoldenDiff),
    }
}

/// A failure of `kind` at `block`: its directive's line and label.
fn block_site(kind: Kind, shown: &str, script: &Script, block: usize) -> Site {
    let line = script.blocks[block].directive.line;
    Site::at(kind, line, block_label(shown, script, block))
}

fn panic_problem(shown: &str, script: &Script, p: &RunPanic) -> (Problem, Site) {
    let (stage, site) = match p.stage {
        Stage::Create => (
            "while building the engine".to_string(),
            Site::file(Kind::Panic),
        ),
        Stage::Directive(i) => (
            format!("at {}", block_label(shown, script, i)),
            block_site(Kind::Panic, shown, script, i),
        ),
        Stage::Witness => (
            "while reading the witness".to_string(),
            Site::file(Kind::Panic),
        ),
    };
    let problem = Problem::new(
        format!("engine panicked under {}", p.run),
        format!("{stage}\npanic: {}", p.panic),
    );
    (problem, site)
}

fn divergence_problem(
    shown: &str,
    script: &Script,
    records: &[RunRecord],
    reference: &[Option<Vec<String>>],
    d: &Divergence,
    golden: &Golden,
) -> Problem {
    let at = block_label(shown, script, d.block);
    let transcript_of =
        |run: usize| script.transcript(&divergence::outputs_of(&records[run], reference));
    let lines: Vec<String> = d
        .differing_blocks
        .iter()
        .map(|&b| script.blocks[b].directive.line.to_string())
        .collect();
    let mut details = format!(
        "first difference at {at}; {} directive(s) differ, at line(s) {}\n",
        lines.len(),
        lines.join(", ")
    );
    for (g, group) in d.groups.iter().enumerate() {
        let rep = transcript_of(group.runs[0]);
        let matches = match golden {
            Golden::Present(text) if *text == rep.text => ", matches the golden",
            _ => "",
        };
        let names: Vec<String> = group
            .runs
            .iter()
            .map(|&r| records[r].run.to_string())
            .collect();
        details.push_str(&format!(
            "group {} ({} run(s){matches}): {}\n",
            g + 1,
            group.runs.len(),
            names.join(", ")
        ));
    }
    let first = &records[d.groups[0].runs[0]];
    let first_text = transcript_of(d.groups[0].runs[0]);
    for group in &d.groups[1..] {
        let other = &records[group.runs[0]];
        let other_text = transcript_of(group.runs[0]);
        details.push_str(&diff::unified(
            &first.run.to_string(),
            &first_text.text,
            &other.run.to_string(),
            &other_text.text,
            &landmarks(shown, script, &other_text),
        ));
    }
    let mut split = Vec::new();
    for group in &d.groups {
        let c = &records[group.runs[0]].run;
        split.push(c.to_string());
    }
    Problem::new(
        format!(
            "runs diverged at {shown}:{} ({} vs {})",
            script.blocks[d.block].directive.line,
            split[0],
            split[1..].join(", ")
        ),
        details.trim_end().to_string(),
    )
}

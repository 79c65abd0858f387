//! The whole suite: find the files, check each, report, and decide the exit status.

use crate::assembly::{Assembly, Location, Unreadable};
use crate::check::judge::Judged;
use crate::check::rewrite;
use crate::check::{Checker, FileReport, Selection};
use crate::cli::{self, Options, ReportFormat};
use crate::isolate::Isolation;
use crate::parallel;
use crate::process::cancel;
use crate::report;
use crate::report::github::{self, Github};
use crate::report::json;
use crate::report::junit;
use crate::report::progress::Progress;
use crate::run::target::Factory;
use crate::suite::{discover, matrix};
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the runner takes from its process: environment variables, and
/// whether files are checked in child processes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    /// `REWRITE`
    pub rewrite: Option<String>,
    /// `CI`
    pub ci: Option<String>,
    /// `GITHUB_ACTIONS`: `true` turns annotations on (see [`github`]).
    pub github_actions: Option<String>,
    /// `GITHUB_STEP_SUMMARY`: the file the job summary is appended to.
    pub step_summary: Option<PathBuf>,
    /// `Some`: each file is checked in a child process (the binary);
    /// `None`: in this process, as the tests with a stand-in engine do.
    pub isolation: Option<Isolation>,
}

impl Env {
    pub fn from_process() -> Env {
        Env {
            // Not UTF-8 is still set: CI in any bytes guards goldens.
            rewrite: lossy_var("REWRITE"),
            ci: lossy_var("CI"),
            github_actions: std::env::var("GITHUB_ACTIONS").ok(),
            step_summary: github::summary_file(std::env::var_os("GITHUB_STEP_SUMMARY").as_deref()),
            isolation: None,
        }
    }
}

/// How a suite run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every file passed (exit 0).
    Passed,
    /// Some file failed (exit 1).
    Failed,
    /// Nothing could be run (exit 2), with the reason.
    Usage(String),
    /// The suite was checked and its report printed, but a report file
    /// (`--junit`) could not be written (exit 2), with the reason.
    Unwritten(String),
}

impl Status {
    pub fn exit_code(&self) -> i32 {
        match self {
            Status::Passed => 0,
            Status::Failed => 1,
            Status::Usage(_) | Status::Unwritten(_) => 2,
        }
    }
}

/// An environment variable, set if it is set at all, whatever its bytes
/// (those that are not UTF-8 shown as U+FFFD).
fn lossy_var(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// Runs the suite described by `options`, printing to `out`. A run
/// cancelled by a signal ([`cancel`]) stops checking and printing files.
pub fn run(options: &Options, env: &Env, factory: &Factory, out: &mut dyn Write) -> Status {
    let github = Github {
        annotate: github::annotating(options.annotations, env.github_actions.as_deref()),
        summary: env.step_summary.clone(),
        scope: Github::scope(
            &options.scenarios,
            options.filter.as_deref(),
            options.partition.map(|p| p.to_string()),
        ),
    };
    match run_inner(options, env, factory, out, &github) {
        Ok(Checked { junit: Err(e), .. }) => Status::Unwritten(e),
        Ok(Checked { passed: true, .. }) => Status::Passed,
        Ok(Checked { passed: false, .. }) => Status::Failed,
        Err(message) => {
            github.could_not_run(&message);
            Status::Usage(message)
        }
    }
}

/// The checker every file of the suite at `location` is checked with.
fn checker<'a>(
    location: &'a Location,
    options: &Options,
    factory: &'a Factory,
    rewrite: bool,
) -> Checker<'a> {
    Checker {
        suite: &location.suite,
        factory,
        rewrite,
        selection: Selection {
            configuration: None,
            runs: options.runs.clone(),
        },
    }
}

/// In a child process (see [`crate::isolate`]): checks the one file `rel`
/// of the suite `options` describe and prints its report as JSON. It
/// writes no golden: one it would rewrite is in the report
/// ([`FileReport::proposed`]), for the parent to write.
pub fn check_one(
    options: &Options,
    env: &Env,
    factory: &Factory,
    rel: &Path,
    out: &mut dyn Write,
) -> Status {
    let checked = (|| {
        let rewrite =
            rewrite::requested(options.rewrite, env.rewrite.as_deref(), env.ci.as_deref())?;
        let location = Location::load(
            &options.scenarios,
            options.suite.as_deref(),
            options.goldens.as_deref(),
            options.dialect,
        )?;
        let (scenario, golden) = (location.scenario(rel), location.golden(rel));
        let report = checker(&location, options, factory, rewrite)
            .check(&Assembly::spec(&scenario, &golden));
        let json = serde_json::to_string(&report).map_err(|e| e.to_string())?;
        writeln!(out, "{json}").map_err(|e| format!("cannot write the report: {e}"))
    })();
    match checked {
        Ok(()) => Status::Passed,
        Err(message) => Status::Usage(message),
    }
}

/// The usage errors only the loaded suite can show, found before any file
/// is checked rather than after.
fn check_options(options: &Options, assembly: &Assembly, rewrite: bool) -> Result<(), String> {
    for run in &options.runs {
        matrix::check_run_name(&assembly.location.suite, run)?;
    }
    if rewrite && assembly.location.suite.corpus.foreign {
        return Err(format!(
            "--rewrite: {} has no suite.yaml, so it is a foreign corpus, whose files are their own goldens: a rewrite never writes into it",
            assembly.location.dir.display()
        ));
    }
    if rewrite && !options.runs.is_empty() {
        return Err(
            "--rewrite checks every run of a file before writing its golden: drop --run"
                .to_string(),
        );
    }
    if let Some(path) = &options.junit {
        junit_writable(path).map_err(|e| format!("--junit {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Whether the JUnit report can be written to `path`, tried as it will be
/// written: not a directory (a trailing `/` names one), in a directory
/// that exists, and opened for writing (a new file is created and
/// removed; an existing one is opened to append, which changes nothing).
/// A device is only opened: writing to one (`/dev/full`) can fail only
/// at the end, and the summary then still comes out.
fn junit_writable(path: &Path) -> Result<(), String> {
    use std::fs::OpenOptions;
    let dir_named = path.as_os_str().to_string_lossy().ends_with('/');
    if path.is_dir() {
        return Err("is a directory; give a file".to_string());
    }
    let parent = match dir_named {
        true => Some(path),
        false => path.parent().filter(|p| !p.as_os_str().is_empty()),
    };
    if let Some(parent) = parent.filter(|p| !p.is_dir()) {
        return Err(format!("no directory {}", parent.display()));
    }
    let exists = path.exists();
    let opened = OpenOptions::new().append(true).create(!exists).open(path);
    match opened {
        Ok(_) if !exists => std::fs::remove_file(path).map_err(|e| e.to_string()),
        Ok(_) => Ok(()),
        Err(e) => Err(format!("cannot write: {e}")),
    }
}

/// What checking a suite came to: whether every file passed, and whether
/// the JUnit report (if asked for) was written.
struct Checked {
    passed: bool,
    junit: Result<(), String>,
}

/// What the suite's trees hold that is not a scenario or a golden: entries
/// discovery skipped, and temporary files of interrupted rewrites, which a
/// rewrite removes.
fn warnings(assembly: &Assembly, rewrite: bool) -> Vec<String> {
    let skipped = assembly.skipped.iter().map(|s| format!("skipped {s}"));
    let what = "a temporary file of an interrupted rewrite";
    let strays = assembly.stray_temps.iter().map(|stray| match rewrite {
        true => match std::fs::remove_file(stray) {
            Ok(()) => format!("removed {}: {what}", stray.display()),
            Err(e) => format!("cannot remove {} ({what}): {e}", stray.display()),
        },
        false => format!("{} is {what}; --rewrite removes it", stray.display()),
    });
    skipped.chain(strays).collect()
}

/// Checks the suite and prints its report, or gives a usage error.
fn run_inner(
    options: &Options,
    env: &Env,
    factory: &Factory,
    out: &mut dyn Write,
    github: &Github,
) -> Result<Checked, String> {
    let rewrite = rewrite::requested(options.rewrite, env.rewrite.as_deref(), env.ci.as_deref())?;
    let assembly = Assembly::load(
        &options.scenarios,
        options.suite.as_deref(),
        options.goldens.as_deref(),
        options.dialect,
    )?;
    let dir = &assembly.location.dir;
    let selected = |rel: &Path| {
        options
            .filter
            .as_ref()
            .is_none_or(|f| discover::slash_path(rel).contains(f.as_str()))
    };
    let select = |paths: &[PathBuf]| -> Vec<PathBuf> {
        paths.iter().filter(|p| selected(p)).cloned().collect()
    };
    let (scenarios, orphans) = (select(&assembly.scenarios), select(&assembly.orphans));
    let unreadable: Vec<&Unreadable> = assembly
        .unreadable
        .iter()
        .filter(|u| selected(&u.rel))
        .collect();
    if scenarios.is_empty() && orphans.is_empty() && unreadable.is_empty() {
        // Nothing to check passes nothing: a suite without a scenario
        // file once reported "0 passed, 0 failed" and exit status 0.
        return Err(match &options.filter {
            Some(f) => format!(
                "no scenario under {} matches --filter {f:?}",
                dir.display()
            ),
            None => format!(
                "no scenario files under {} (a scenario is a *.dd or *.slt file; the names are case-sensitive)",
                dir.display()
            ),
        });
    }
    check_options(options, &assembly, rewrite)?;
    // After the filter check: a shard may well be empty.
    let in_shard = |rel: &PathBuf| {
        options
            .partition
            .is_none_or(|p| p.contains(&discover::slash_path(rel)))
    };
    let scenarios: Vec<PathBuf> = scenarios.into_iter().filter(in_shard).collect();
    let orphans: Vec<PathBuf> = orphans.into_iter().filter(in_shard).collect();
    let unreadable: Vec<&Unreadable> = unreadable
        .into_iter()
        .filter(|u| in_shard(&u.rel))
        .collect();

    let checker = checker(&assembly.location, options, factory, rewrite);
    let configurations: Vec<String> = assembly
        .location
        .suite
        .configurations
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let io = |e: std::io::Error| format!("cannot write the report: {e}");
    let text = options.format == ReportFormat::Text;
    let warnings = warnings(&assembly, rewrite);
    let foreign = assembly.location.suite.corpus.foreign;
    if text {
        for warning in &warnings {
            writeln!(out, "warning: {warning}").map_err(io)?;
        }
        if foreign {
            writeln!(out, "{}", report::FOREIGN).map_err(io)?;
        }
    }
    let mut reports: Vec<FileReport> = Vec::new();
    let mut record = |report: FileReport, out: &mut dyn Write| -> Result<(), String> {
        // Once cancelled, nothing more is reported: the files still being
        // checked were stopped, not failed.
        if !cancel::live() {
            return Ok(());
        }
        if text {
            out.write_all(report::file(&report).as_bytes())
                .map_err(io)?;
            out.flush().map_err(io)?;
        }
        github.annotate(&report, text, out)?;
        reports.push(report);
        Ok(())
    };

    let check = |i: usize| {
        let rel = &scenarios[i];
        let (scenario, golden) = (
            assembly.location.scenario(rel),
            assembly.location.golden(rel),
        );
        let shown = scenario.display().to_string();
        let mut report = match (&env.isolation, cancel::requested()) {
            (_, Some(signal)) => FileReport {
                path: shown,
                problems: vec![crate::check::Problem {
                    summary: format!("not checked: cancelled by {}", cancel::name(signal)),
                    details: String::new(),
                }],
                ..FileReport::default()
            },
            (None, None) => checker.check(&Assembly::spec(&scenario, &golden)),
            (Some(child), None) => child.check(rel, &shown, &configurations),
        };
        rewrite::apply(
            &mut report,
            &golden,
            &golden.display().to_string(),
            &cancel::live,
        );
        if !report.passed() {
            let runs: Vec<String> = report.failing_runs.iter().map(|r| r.to_string()).collect();
            let command = cli::reproduce(options, &discover::slash_path(rel), &runs);
            report.reproduce = Some(command);
        }
        report
    };
    let progress = RefCell::new(Progress::new(scenarios.len()));
    parallel::in_order(
        scenarios.len(),
        options.jobs_at_once(),
        &check,
        &mut |done, i| {
            progress
                .borrow_mut()
                .update(done, &discover::slash_path(&scenarios[i]))
        },
        &mut |_, report| progress.borrow_mut().around(|| record(report, out)),
    )?;
    progress.borrow_mut().clear();
    if !cancel::live() {
        return Ok(Checked {
            passed: false,
            junit: Ok(()),
        });
    }
    for rel in &orphans {
        record(assembly.orphan_report(rel), out)?;
    }
    for u in &unreadable {
        record(Assembly::unreadable_report(u), out)?;
    }

    let written: Vec<String> = reports.iter().filter_map(|r| r.written.clone()).collect();
    let failed = reports.iter().filter(|r| !r.passed()).count();
    let passed = reports.len() - failed;
    github.summarize(&reports, passed, failed);
    // A JUnit report that cannot be written loses nothing else: the
    // summary or the JSON still comes out, and the exit status says so.
    let junit = match &options.junit {
        None => Ok(()),
        Some(path) => {
            let names: Vec<String> = scenarios
                .iter()
                .chain(&orphans)
                .map(|p| discover::slash_path(p))
                .chain(unreadable.iter().map(|u| u.shown.clone()))
                .collect();
            junit::render(&names, &reports).and_then(|xml| {
                std::fs::write(path, xml).map_err(|e| {
                    format!(
                        "--junit {}: cannot write the JUnit report: {e} (the report on stdout is whole)",
                        path.display()
                    )
                })
            })
        }
    };
    let checked = Checked {
        passed: failed == 0,
        junit,
    };
    if !text {
        writeln!(out, "{}", json::render(&reports, &written, &warnings)).map_err(io)?;
        return Ok(checked);
    }
    if rewrite {
        let line = if written.is_empty() {
            "rewrite: no golden changed".to_string()
        } else {
            format!(
                "rewrite: wrote {} golden(s): {}",
                written.len(),
                written.join(", ")
            )
        };
        writeln!(out, "{line}").map_err(io)?;
    }
    if foreign {
        let mut total = Judged::default();
        reports
            .iter()
            .filter_map(|r| r.judged.as_ref())
            .for_each(|j| total.add(j));
        write!(out, "{}", report::corpus(&total, reports.len())).map_err(io)?;
    }
    writeln!(out, "{}", report::summary(passed, failed)).map_err(io)?;
    Ok(checked)
}

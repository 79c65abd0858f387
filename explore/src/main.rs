//! `explore`: generates scenarios from a range of seeds, checks each under
//! the suite's configurations, shrinks every failure and writes it as a
//! scenario file with its golden under `OUT/testdata/explore/` and
//! `OUT/goldens/explore/`.
//!
//! ```text
//! cargo run --release -p explore -- [--seeds A..B] [--jobs N] [--partition K/N]
//!                                   [--out DIR] [--steps N] [--max-failures N] [--seconds N]
//! ```
//!
//! The flags are read in `cli.rs` (`explore --help`); this file explores
//! the seeds, in this process or in `--jobs` child processes, and under
//! GitHub Actions reports the findings for a reviewer (`github.rs`).

use std::path::PathBuf;
use std::process::exit;
use std::time::Instant;

use explore::check::{check, Failure, Matrix, Spent};
use explore::generate::{generate, Scenario, Step, Tally, VERSION};
use explore::github::{self, Finding};
use explore::shrink::{shrink, shrink_rows};
use runner::report::github as report;

mod cli;

use cli::Options;

/// A failure found from one seed, shrunk.
struct Found {
    seed: u64,
    failure: Failure,
    text: String,
    golden: Option<String>,
    /// Directives before and after shrinking.
    directives: (usize, usize),
}

fn header(seed: u64, failure: &Failure, options: &Options, workers: Option<usize>) -> Vec<String> {
    let mut lines: Vec<String> = workers
        .map(|w| format!("workers: {w}"))
        .into_iter()
        .collect();
    lines.extend([
        format!(
            "Found by the explorer: seed {seed}, generator version {VERSION}, {} steps.",
            options.config.steps
        ),
        format!("Failure: {failure}"),
        format!("Regenerate: {}", regenerate(seed, options)),
        format!("Replay: {}", replay(seed, options)),
    ]);
    lines
}

/// The command that generates the scenario of `seed` again.
fn regenerate(seed: u64, options: &Options) -> String {
    format!(
        "cargo run --release -p explore -- --seeds {seed}..{} --steps {} --out {}",
        seed + 1,
        options.config.steps,
        options.out.display()
    )
}

/// The command that replays the file written for `seed`.
fn replay(seed: u64, options: &Options) -> String {
    let out = options.out.display();
    format!("cargo run -p runner -- {out}/testdata --filter explore/seed-{seed}.dd")
}

/// `found` as reports show it; `written`: whether its files were written.
fn finding(found: &Found, written: bool, options: &Options) -> Finding {
    let name = format!("seed-{}.dd", found.seed);
    Finding {
        seed: found.seed,
        kind: format!("{:?}", found.failure.kind),
        directive: found.failure.directive.clone(),
        message: found.failure.message.clone(),
        directives: found.directives,
        scenario: format!("testdata/explore/{name}"),
        golden: found
            .golden
            .as_ref()
            .map(|_| format!("goldens/explore/{name}")),
        written,
        regenerate: regenerate(found.seed, options),
        replay: replay(found.seed, options),
    }
}

/// Under GitHub Actions (or `--annotations github`): an annotation per
/// finding on stdout (before the summary line, which stays the last), and
/// the job summary when `GITHUB_STEP_SUMMARY` names a file; `broken`: a
/// job ended without its summary.
fn report_findings(options: &Options, explored: usize, findings: &[Finding], broken: bool) {
    let out = options.out.display().to_string();
    let artifact = options.artifact.as_deref();
    let github_actions = std::env::var("GITHUB_ACTIONS").ok();
    if report::annotating(options.annotations, github_actions.as_deref()) {
        for f in findings {
            print!("{}", github::annotation(f, &out, artifact));
        }
    }
    let Some(path) = report::summary_file(std::env::var_os("GITHUB_STEP_SUMMARY").as_deref())
    else {
        return;
    };
    let mut scope = format!(
        "explore --seeds {}..{}",
        options.seeds.start, options.seeds.end
    );
    if options.partition != (1, 1) {
        scope.push_str(&format!(
            " --partition {}/{}",
            options.partition.0, options.partition.1
        ));
    }
    let mut text = github::summary(&scope, explored, findings, &out, artifact);
    if broken {
        text.push_str("\nA job ended without its summary (the step's log says which and where): not every seed was explored.\n");
    }
    if let Err(e) = report::append(&path, &text) {
        eprintln!("explore: {e}");
    }
}

/// Where the time went: generating, the first check of each scenario,
/// and the checks of shrinking.
#[derive(Default)]
struct Times {
    generating: std::time::Duration,
    exploring: Spent,
    shrinking: Spent,
}

impl Times {
    fn describe(&self) -> String {
        let checks = self.exploring.total() + self.shrinking.total();
        let share = self.shrinking.total().as_secs_f64() / checks.as_secs_f64().max(1e-9);
        format!(
            "time: generating {:.2} s; first checks: {}; shrinking ({:.0}% of checking): {}",
            self.generating.as_secs_f64(),
            self.exploring,
            100.0 * share,
            self.shrinking
        )
    }
}

/// Whether `steps` fail the way `failure` did under `matrix`.
fn fails_alike(
    seed: u64,
    steps: &[Step],
    matrix: &Matrix,
    failure: &Failure,
    spent: &mut Spent,
) -> bool {
    let candidate = Scenario {
        seed,
        steps: steps.to_vec(),
    };
    check(&candidate.render(&[]), matrix, spent)
        .failure
        .is_some_and(|f| f.same_as(failure))
}

/// Generates and checks `seed`; a failure is shrunk (steps, then one
/// worker if that still fails alike, then rows and values) and written
/// with a header that says how to reproduce it.
fn explore_seed(
    seed: u64,
    options: &Options,
    matrix: &Matrix,
    times: &mut Times,
    tally: &mut Tally,
) -> Option<Found> {
    let start = Instant::now();
    let scenario = generate(seed, &options.config);
    times.generating += start.elapsed();
    tally.add(&scenario);
    let failure = check(&scenario.render(&[]), matrix, &mut times.exploring).failure?;
    let spent = &mut times.shrinking;
    let steps = shrink(&scenario.steps, |steps| {
        fails_alike(seed, steps, matrix, &failure, spent)
    });
    let one_worker = Matrix {
        workers: vec![1],
        ..matrix.clone()
    };
    let narrowed = matrix.workers != one_worker.workers
        && fails_alike(seed, &steps, &one_worker, &failure, spent);
    let matrix = if narrowed { &one_worker } else { matrix };
    let steps = shrink_rows(&steps, |steps| {
        fails_alike(seed, steps, matrix, &failure, spent)
    });
    let scenario_shrunk = Scenario { seed, steps };
    let last = check(&scenario_shrunk.render(&[]), matrix, spent);
    let failure = last.failure.unwrap_or(failure);
    let workers = narrowed.then_some(1);
    let text = scenario_shrunk.render(&header(seed, &failure, options, workers));
    // The golden: the reference run's outputs of the file as written; for
    // a disagreement with the model, which every configuration shares, the
    // model's claims where it claims (the run's answer is the one in
    // doubt), so that the file fails on the engine that disagrees.
    let golden = runner::format::Script::parse(std::path::Path::new("x.dd"), "x.dd", &text)
        .ok()
        .filter(|_| !last.reference.is_empty())
        .map(|script| {
            let mut outputs = last.reference.clone();
            if failure.kind == explore::check::Kind::Model {
                claimed(&script, &mut outputs);
            }
            script.transcript(&outputs).text
        });
    Some(Found {
        seed,
        failure,
        text,
        golden,
        directives: (directives(&scenario), directives(&scenario_shrunk)),
    })
}

/// Directives in a scenario: each block ends in one `----` line.
fn directives(scenario: &Scenario) -> usize {
    let text = scenario.render(&[]);
    text.lines().filter(|l| *l == "----").count()
}

/// Writes `found` under `out`, beside the `suite.yaml` of `matrix`.
fn write(found: &Found, out: &std::path::Path, matrix: &Matrix) -> std::io::Result<()> {
    let name = format!("seed-{}.dd", found.seed);
    let scenarios = out.join("testdata/explore");
    std::fs::create_dir_all(&scenarios)?;
    std::fs::write(out.join("testdata/suite.yaml"), matrix.suite_yaml())?;
    std::fs::write(scenarios.join(&name), &found.text)?;
    if let Some(golden) = &found.golden {
        let goldens = out.join("goldens/explore");
        std::fs::create_dir_all(&goldens)?;
        std::fs::write(goldens.join(&name), golden)?;
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = Instant::now();
    let options = cli::parse(&args);
    // Before exploring: a finding must have somewhere to go.
    if let Err(e) = writable(&options.out) {
        cli::fail(&format!(
            "--out {}: cannot write findings there: {e}",
            options.out.display()
        ));
    }
    if options.jobs > 1 {
        return jobs(&args, &options);
    }
    let total = options.job_seed_count();
    let matrix = Matrix::default();
    let mut found = Vec::new();
    let mut findings = Vec::new();
    let mut explored = 0;
    let mut times = Times::default();
    let mut tally = Tally::default();
    for seed in options.job_seeds() {
        let out_of_time = options
            .seconds
            .is_some_and(|s| start.elapsed().as_secs_f64() >= s);
        if found.len() >= options.max_failures || out_of_time {
            break;
        }
        // Where a job killed from outside (out of memory, say) was.
        if options.job.1 > 1 {
            let _ = std::fs::create_dir_all(&options.out);
            let _ = std::fs::write(running(&options.out, options.job.0), seed.to_string());
        }
        if let Some(f) = explore_seed(seed, &options, &matrix, &mut times, &mut tally) {
            eprintln!(
                "seed {seed}: {} (shrunk {} -> {} directives)",
                f.failure, f.directives.0, f.directives.1
            );
            let written = write(&f, &options.out, &matrix);
            if let Err(e) = &written {
                eprint!("{}", unwritten(&f, &options.out, e));
            }
            let finding = finding(&f, written.is_ok(), &options);
            // A job hands its findings to its parent, which reports them.
            if options.job.1 > 1 {
                println!("{}", finding.line());
            }
            findings.push(finding);
            found.push(f);
        }
        explored += 1;
        if explored % 10 == 0 {
            eprintln!("explored {explored}/{total}");
        }
    }
    let _ = std::fs::remove_file(running(&options.out, options.job.0));
    let seconds = start.elapsed().as_secs_f64();
    println!("{}", times.describe());
    if options.job.1 == 1 {
        report_findings(&options, explored, &findings, false);
    }
    let unwritten = findings.iter().filter(|f| !f.written).count();
    println!("{tally}");
    println!(
        "{}",
        summary(explored, seconds, found.len(), unwritten, &options)
    );
    exit(if found.is_empty() { 0 } else { 1 })
}

/// `--jobs N`: N child processes of this binary, each exploring every
/// N-th of the seeds. Processes, not threads, so that a panic on an
/// engine's worker thread is only ever attributed to the one run of its
/// process (panics are caught per process).
fn jobs(args: &[String], options: &Options) {
    let start = Instant::now();
    let exe = std::env::current_exe().unwrap_or_else(|e| cli::fail(&format!("no executable: {e}")));
    let children: Vec<_> = (1..=options.jobs)
        .map(|j| {
            let job = format!("{j}/{}", options.jobs);
            let mut command = std::process::Command::new(&exe);
            command.args(args).args(["--jobs", "1", "--job", &job]);
            command.stdout(std::process::Stdio::piped());
            // A job dies with this process, whatever ends it: it would
            // otherwise explore on and hold the caller's stderr open.
            runner::process::die_with_parent(&mut command);
            command
                .spawn()
                .unwrap_or_else(|e| cli::fail(&format!("cannot start a job: {e}")))
        })
        .collect();
    let (mut explored, mut failures, mut broken) = (0, 0, false);
    let mut findings = Vec::new();
    let mut tally = Tally::default();
    for (j, child) in (1..).zip(children) {
        let output = child.wait_with_output();
        let status = match &output {
            Ok(o) => o.status.to_string(),
            Err(e) => e.to_string(),
        };
        let text = output.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
        let text = text.unwrap_or_default();
        let (lines, found, last) = github::job_output(&text);
        for line in lines {
            println!("job {j}/{}: {line}", options.jobs);
            tally.merge(&Tally::parse(line).unwrap_or_default());
        }
        findings.extend(found);
        let counts = last.and_then(counts_of);
        match counts {
            Some((e, f)) => (explored, failures) = (explored + e, failures + f),
            None => {
                let seed = std::fs::read_to_string(running(&options.out, j));
                eprintln!(
                    "explore: job {j}/{} ended without its summary ({}) while exploring seed {}",
                    options.jobs,
                    status,
                    seed.unwrap_or_else(|_| "?".into())
                );
                broken = true;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    findings.sort_by_key(|f| f.seed);
    report_findings(options, explored, &findings, broken);
    let unwritten = findings.iter().filter(|f| !f.written).count();
    println!("{tally}");
    println!(
        "{}",
        summary(explored, seconds, failures, unwritten, options)
    );
    if broken {
        exit(2)
    }
    exit(if failures == 0 { 0 } else { 1 })
}

/// The file in which job `j` of `--jobs` keeps the seed it is exploring.
fn running(out: &std::path::Path, j: u64) -> PathBuf {
    out.join(format!("running-job-{j}"))
}

/// The last line of a run: `explored N scenarios in S s (R/s), F
/// failures`, and where they are: `unwritten` of them could not be written
/// and were printed whole on stderr instead.
fn summary(
    explored: usize,
    seconds: f64,
    failures: usize,
    unwritten: usize,
    options: &Options,
) -> String {
    let out = options.out.display();
    format!(
        "explored {} scenarios in {:.1} s ({:.2}/s), {} failures{}",
        explored,
        seconds,
        explored as f64 / seconds.max(1e-9),
        failures,
        match (failures, unwritten) {
            (0, _) => String::new(),
            (_, 0) => format!(" (written under {out})"),
            (f, u) if f == u =>
                format!(" (none could be written under {out}: each was printed whole on stderr)"),
            (f, u) => format!(
                " ({} written under {out}; {u} could not be, printed whole on stderr)",
                f - u
            ),
        }
    )
}

/// Whether findings can be written under `out`: it is made if missing,
/// and a file is created in it and removed.
fn writable(out: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(out)?;
    let probe = out.join(format!(".explore-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// Replaces each output the model claims with its claim.
fn claimed(script: &runner::format::Script, outputs: &mut [Option<Vec<String>>]) {
    let mut model = model::Model::new();
    for (block, output) in script.blocks.iter().zip(outputs.iter_mut()) {
        if let model::Expectation::Claim(lines) = model.expect(&block.directive.command) {
            *output = Some(lines);
        }
    }
}

/// What stderr shows of a finding that could not be written under `out`:
/// why, then the scenario and its golden whole, so that nothing is lost.
fn unwritten(found: &Found, out: &std::path::Path, e: &std::io::Error) -> String {
    let name = format!("seed-{}.dd", found.seed);
    let mut text = format!(
        "explore: cannot write seed {} under {}: {e}; its files follow\n",
        found.seed,
        out.display()
    );
    text.push_str(&format!("--- testdata/explore/{name}\n{}", found.text));
    if let Some(golden) = &found.golden {
        text.push_str(&format!("--- goldens/explore/{name}\n{golden}"));
    }
    text.push_str(&format!("--- end of seed-{}\n", found.seed));
    text
}

/// (explored, failures) of a `summary` line.
fn counts_of(line: &str) -> Option<(usize, usize)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let explored = words.get(1)?.parse().ok()?;
    let at = words.iter().position(|w| w.starts_with("failures"))?;
    Some((explored, words.get(at.checked_sub(1)?)?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use explore::check::Kind;

    fn found() -> Found {
        Found {
            seed: 7,
            failure: Failure {
                kind: Kind::Divergence,
                directive: "fetch".into(),
                message: "runs differ".into(),
            },
            text: "# a header\n\nquery\nSELECT 1\n----\n".into(),
            golden: Some("# a header\n\nquery\nSELECT 1\n----\n1\n".into()),
            directives: (40, 1),
        }
    }

    /// A finding that cannot be written is printed whole: once only "cannot
    /// write seed 7" was said, and the summary claimed it written.
    #[test]
    fn a_finding_that_cannot_be_written_is_printed_whole() {
        let f = found();
        let e = std::io::Error::other("Read-only file system");
        let text = unwritten(&f, std::path::Path::new("o"), &e);
        assert_eq!(
            text,
            format!(
                "explore: cannot write seed 7 under o: Read-only file system; its files follow\n\
                 --- testdata/explore/seed-7.dd\n{}--- goldens/explore/seed-7.dd\n{}--- end of seed-7\n",
                f.text,
                f.golden.unwrap()
            )
        );
    }

    #[test]
    fn the_summary_says_where_the_findings_are() {
        let options = cli::try_parse(&["--out".into(), "o".into()]).unwrap();
        let line = |failures, unwritten| summary(3, 1.0, failures, unwritten, &options);
        assert_eq!(
            line(0, 0),
            "explored 3 scenarios in 1.0 s (3.00/s), 0 failures"
        );
        assert_eq!(
            line(2, 0),
            "explored 3 scenarios in 1.0 s (3.00/s), 2 failures (written under o)"
        );
        assert_eq!(
            line(2, 2),
            "explored 3 scenarios in 1.0 s (3.00/s), 2 failures (none could be written under o: each was printed whole on stderr)"
        );
        assert_eq!(
            line(3, 1),
            "explored 3 scenarios in 1.0 s (3.00/s), 3 failures (2 written under o; 1 could not be, printed whole on stderr)"
        );
        // A job's line still gives its parent the counts.
        assert_eq!(counts_of(&line(3, 1)), Some((3, 3)));
    }

    /// A disagreement with the model is in every configuration alike: its
    /// golden holds the model's claims, so that the file fails on the
    /// engine that printed otherwise and passes on one that agrees.
    #[test]
    fn a_model_findings_golden_holds_the_models_claims() {
        let text = "statement\nCREATE TABLE t (k int)\n----\n\nquery\nSELECT * FROM t\n----\n\nquery\nSELECT * FROM mz_arrangement_frontiers\n----\n";
        let path = std::path::Path::new("x.dd");
        let script = runner::format::Script::parse(path, "x.dd", text).expect("parses");
        let printed = |l: &str| Some(vec![l.to_string()]);
        let mut outputs = vec![printed("ok"), printed("1"), printed("what ran")];
        claimed(&script, &mut outputs);
        // The read is claimed empty; introspection beyond the model is not.
        assert_eq!(
            outputs,
            vec![printed("ok"), Some(vec![]), printed("what ran")]
        );
    }
}

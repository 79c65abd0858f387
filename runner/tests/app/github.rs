//! The report of a failing suite, pinned, locally and under GitHub
//! Actions: `runner/tests/github/` holds a suite whose every file fails in
//! its own way on purpose (a golden diff in each format, a divergence, a
//! witness failure, a panic, a malformed file, a missing golden, a golden
//! without a scenario), replayed on a stand-in engine that makes those
//! failures, and the reports it must give, checked in under `expected/`
//! and read as claims: the local text report, the same with an annotation
//! after each failing file, and the job summary. Also the escaping of
//! hostile file names, and what is written when GitHub is half set up.

use crate::common::{fake, Built, Project, BASIC, BASIC_GOLDEN};
use engine::repr::Datum;
use engine::{Config, Outcome, Witness};
use runner::app::{self, Env, Status};
use runner::cli::{Options, ReportFormat};
use runner::format::directive::Command;
use runner::run::target::Target;
use std::path::Path;

/// A stand-in engine whose answers make each failure on purpose:
/// - `SELECT sharing`: one row, whether sharing is on (solo and shared diverge);
/// - `SELECT panic`: panics;
/// - `SELECT lie`: one row `1`, and from then on the run's witness claims
///   every read was served locally (false under sharing);
/// - `SELECT text`: one row of text holding a backtick and a pipe;
/// - any other query: one row `1`; anything else: `ok`.
struct Standin {
    sharing: bool,
    reads: u64,
    lie: bool,
}

impl Target for Standin {
    fn execute(&mut self, command: &Command) -> Outcome {
        let Command::Query { sql, .. } = command else {
            return Outcome::Ok;
        };
        self.reads += 1;
        let one = |datum| Outcome::Rows(vec![vec![datum]]);
        match sql.as_str() {
            "SELECT sharing" => one(Datum::Bool(self.sharing)),
            "SELECT panic" => panic!("the stand-in panics on purpose"),
            "SELECT text" => one(Datum::Text("`x` | y".into())),
            "SELECT lie" => {
                self.lie = true;
                one(Datum::Int64(1))
            }
            _ => one(Datum::Int64(1)),
        }
    }

    fn witness(&self) -> Witness {
        let shared = self.sharing && !self.lie;
        Witness {
            shared_reads: if shared { self.reads } else { 0 },
            local_reads: if shared { 0 } else { self.reads },
            published: u64::from(self.sharing),
            stale_slots: Some(vec![]),
            ..Witness::default()
        }
    }
}

fn standin(config: &Config) -> Box<dyn Target> {
    Box::new(Standin {
        sharing: config.sharing,
        reads: 0,
        lie: false,
    })
}

/// The failing suite, relative to the runner's crate (the tests' working
/// directory), so that its paths print the same everywhere.
const SUITE: &str = "tests/github/testdata";

fn expected(name: &str) -> String {
    let path = Path::new("tests/github/expected").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` with the panic's source location (which moves whenever this
/// file is edited) replaced by `LOCATION`.
fn located(text: &str) -> String {
    const AT: &str = "(at runner/tests/app/github.rs:";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(AT) {
        out.push_str(&rest[..i]);
        out.push_str("(at LOCATION)");
        let after = &rest[i..];
        rest = &after[after.find(')').map_or(after.len(), |j| j + 1)..];
    }
    out + rest
}

/// Checks the failing suite with `options` and `env`: the status and stdout.
fn run(options: &Options, env: &Env) -> (Status, String) {
    let mut out = Vec::new();
    let status = app::run(options, env, &standin, &mut out);
    (status, located(&String::from_utf8(out).unwrap()))
}

fn options() -> Options {
    Options {
        scenarios: SUITE.into(),
        ..Options::default()
    }
}

/// Outside GitHub Actions the report is the one the runner always printed
/// (`expected/local.txt` was written by the runner before it knew of
/// GitHub, at 4491b48).
#[test]
fn a_local_run_prints_the_report_it_always_printed() {
    let (status, out) = run(&options(), &Env::default());
    assert_eq!(status, Status::Failed);
    assert_eq!(out, expected("local.txt"));
}

/// A golden diff at a directive that only some configurations run is
/// reproduced by a run of one of them: the reproduce line once named the
/// first run of the file, whose configuration skips the directive, so the
/// command it printed passed.
#[test]
fn a_golden_diff_is_reproduced_by_a_run_that_ran_its_directive() {
    let p = Project::new();
    let scenario =
        "statement\nCREATE TABLE t (a int)\n----\n\nquery configs=shared\nSELECT rows\n----\n";
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n\nquery configs=shared\nSELECT rows\n----\n9 z\n";
    p.scenario("narrow.dd", scenario)
        .golden("narrow.dd", golden);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed, "{out}");
    let reproduce = "--filter narrow.dd --run shared/workers=1/round-robin\n";
    assert!(out.contains(reproduce), "{out}");
    let only = |run: &str| Options {
        runs: vec![run.to_string()],
        ..p.options()
    };
    let factory = fake(false, Built::default());
    let (status, out) = p.run_with(
        &only("shared/workers=1/round-robin"),
        &Env::default(),
        &factory,
    );
    assert_eq!(
        status,
        Status::Failed,
        "the reproduce line reproduces it:\n{out}"
    );
    let (status, _) = p.run_with(
        &only("solo/workers=1/round-robin"),
        &Env::default(),
        &factory,
    );
    assert_eq!(status, Status::Passed, "solo skips the directive");
}

/// What GitHub Actions sets, with the job summary at `summary`.
fn on_github(summary: &Path) -> Env {
    Env {
        github_actions: Some("true".into()),
        step_summary: Some(summary.to_path_buf()),
        ..Env::default()
    }
}

/// Under GitHub Actions each failing file is followed by one `::error`
/// annotation at its first failure's directive, and the job summary is
/// appended to (what an earlier step wrote stays); nothing else changes.
#[test]
fn under_github_actions_failures_are_annotated_and_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "an earlier step's summary\n").unwrap();
    let (status, out) = run(&options(), &on_github(&summary));
    assert_eq!(status, Status::Failed);
    assert_eq!(out, expected("github.txt"));
    let report: Vec<&str> = out.lines().filter(|l| !l.starts_with("::")).collect();
    assert_eq!(report.join("\n") + "\n", expected("local.txt"));
    assert_eq!(out.matches("::error ").count(), 8, "one per failing file");
    let written = located(&std::fs::read_to_string(&summary).unwrap());
    let ours = written.strip_prefix("an earlier step's summary\n").unwrap();
    assert_eq!(ours, expected("summary.md"));
}

/// `--annotations` decides over `GITHUB_ACTIONS`; the summary is written
/// whenever `GITHUB_STEP_SUMMARY` names a file, and the JSON report on
/// stdout stays one document.
#[test]
fn the_flag_and_the_variables_each_decide_their_part() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let off = Options {
        annotations: Some(false),
        ..options()
    };
    let (_, out) = run(&off, &on_github(&summary));
    assert_eq!(out, expected("local.txt"));
    let written = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(located(&written), expected("summary.md"));
    let on = Options {
        annotations: Some(true),
        ..options()
    };
    let (_, out) = run(&on, &Env::default());
    assert_eq!(out, expected("github.txt"), "asked for outside GitHub");
    let unset = Env {
        github_actions: Some("true".into()),
        ..Env::default()
    };
    let (_, out) = run(&options(), &unset);
    assert_eq!(
        out,
        expected("github.txt"),
        "no summary file: annotations only"
    );
    let json = Options {
        format: ReportFormat::Json,
        ..options()
    };
    let (_, local) = run(&json, &Env::default());
    let (_, ours) = run(&json, &on_github(&dir.path().join("json.md")));
    assert_eq!(ours, local, "annotations go to stderr beside JSON");
    let summary_json = std::fs::read_to_string(dir.path().join("json.md")).unwrap();
    assert_eq!(located(&summary_json), expected("summary.md"));
}

/// A green run's summary is one line; a run that cannot start says why.
#[test]
fn a_green_run_writes_one_line_and_a_usage_error_says_why() {
    let p = Project::new();
    p.scenario("a.dd", BASIC).golden("a.dd", BASIC_GOLDEN);
    let summary = p.root.join("summary.md");
    let factory = fake(false, Built::default());
    let (status, out) = p.run_with(&p.options(), &on_github(&summary), &factory);
    assert_eq!(status, Status::Passed);
    assert!(!out.contains("::"), "{out}");
    let root = p.root.display().to_string();
    let written = std::fs::read_to_string(&summary)
        .unwrap()
        .replace(&root, "ROOT");
    assert_eq!(
        written,
        "### <code>runner ROOT/testdata</code>: 1 passed, 0 failed\n"
    );
    std::fs::remove_file(&summary).unwrap();
    let filtered = Options {
        filter: Some("nothing|here".into()),
        ..p.options()
    };
    let (status, _) = p.run_with(&filtered, &on_github(&summary), &factory);
    assert_eq!(status.exit_code(), 2);
    let written = std::fs::read_to_string(&summary)
        .unwrap()
        .replace(&root, "ROOT");
    assert_eq!(
        written,
        "### <code>runner ROOT/testdata --filter nothing&#124;here</code>: could not run: no scenario under ROOT/testdata matches --filter &#34;nothing&#124;here&#34;\n"
    );
}

/// A file name holding a newline, `%`, `:` and `,` stays one annotation
/// command whose `file` reads back as the name, and one row of the
/// summary's table.
#[test]
fn a_hostile_file_name_breaks_neither_the_command_nor_the_table() {
    let p = Project::new();
    let name = "odd, name: 100%\nline.dd";
    let golden = BASIC_GOLDEN.replace("1 a\n2 b", "1 a\n2 z");
    p.scenario(name, BASIC).golden(name, &golden);
    let summary = p.root.join("summary.md");
    let factory = fake(false, Built::default());
    let (status, out) = p.run_with(&p.options(), &on_github(&summary), &factory);
    assert_eq!(status, Status::Failed, "{out}");
    let command = out.lines().find(|l| l.starts_with("::")).unwrap();
    let escaped = "ROOT/testdata/odd%2C name%3A 100%25%0Aline.dd";
    assert!(
        command.starts_with(&format!(
            "::error file={escaped},line=7,title=runner%3A golden diff::transcript differs"
        )),
        "{command}"
    );
    assert_eq!(out.matches("::error ").count(), 1, "{out}");
    let root = p.root.display().to_string();
    let written = std::fs::read_to_string(&summary)
        .unwrap()
        .replace(&root, "ROOT");
    let rows: Vec<&str> = written.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 3, "head, rule and one row:\n{written}");
    assert_eq!(rows[2].matches(" | ").count(), 4, "five cells: {}", rows[2]);
    assert!(
        rows[2].starts_with(
            "| <code>ROOT/testdata/odd, name&#58; 100%␤line.dd</code> | golden diff |"
        ),
        "{}",
        rows[2]
    );
}

/// The binary under GitHub Actions: a file whose child process crashes or
/// runs out of time is annotated on its first line as a crash or a
/// time-out, beside the text report on stdout, or on stderr beside the
/// JSON report; the job summary has its row.
#[cfg(unix)]
#[test]
fn a_crash_and_a_time_out_are_annotated_on_the_file() {
    let p = Project::new();
    let scenario = "statement\nCREATE TABLE t (a int)\n----\n";
    let golden = "statement\nCREATE TABLE t (a int)\n----\nok\n";
    for name in ["crashes.dd", "fine.dd", "hangs.dd"] {
        p.scenario(name, scenario).golden(name, golden);
    }
    let root = p.root.display().to_string();
    let summary = p.root.join("summary.md");
    // The other files must finish within the time-out: a second is short
    // on a loaded machine, so only the run that waits for it has one.
    let run = |point: &str, format: &str, timeout: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
            .arg(p.root.join("testdata"))
            .args(["--timeout", timeout, "--format", format])
            .env("RUNNER_CHILD_FAILPOINT", point)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap();
        let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap().replace(&root, "ROOT");
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (code, out, _) = run("abort:crashes.dd", "text", "600");
    assert_eq!(code, Some(1), "{out}");
    let crash = "::error file=ROOT/testdata/crashes.dd,line=1,title=runner%3A crash::the check of this file crashed: killed by signal 6 (SIGABRT: an abort, such as a stack overflow)%0A(the whole file)%0Areproduce: cargo run -p runner -- ROOT/testdata --filter crashes.dd";
    let annotations: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 1, "{out}");
    assert!(annotations[0].starts_with(crash), "{out}");
    assert!(out.ends_with("\n2 passed, 1 failed\n"), "{out}");

    let (code, out, err) = run("hang:hangs.dd", "json", "5");
    assert_eq!(code, Some(1), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["failed"], 1);
    let time_out = "::error file=ROOT/testdata/hangs.dd,line=1,title=runner%3A time-out::the check of this file crashed: did not finish within 5 s";
    assert!(err.starts_with(time_out), "{err}");

    let written = std::fs::read_to_string(&summary)
        .unwrap()
        .replace(&root, "ROOT");
    let rows: Vec<&str> = written
        .lines()
        .filter(|l| l.starts_with("| <code>"))
        .collect();
    assert_eq!(
        rows,
        [
            "| <code>ROOT/testdata/crashes.dd</code> | crash | — | the whole file | <code>cargo run -p runner -- ROOT/testdata --filter crashes.dd</code> |",
            "| <code>ROOT/testdata/hangs.dd</code> | time-out | — | the whole file | <code>cargo run -p runner -- ROOT/testdata --filter hangs.dd</code> |",
        ],
        "{written}"
    );
}

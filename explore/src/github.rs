//! The explorer's findings for a reviewer on GitHub, as the runner reports
//! its failures (`runner::report::github`, whose escaping it uses): under
//! GitHub Actions an error annotation per finding (on the run, since the
//! scenario is not in the repository), and a job summary with a row per
//! finding: its seed, how it fails, its size before and after shrinking,
//! and where the scenario and its golden are: in the artifact the workflow
//! uploads `--out` as, named by `--artifact`. A `--jobs` child hands its
//! findings to its parent as [`Finding::line`]s on stdout, which the
//! parent reads back and does not print.

use runner::report::github::command::Annotation;
use runner::report::github::markdown;
use serde::{Deserialize, Serialize};

/// How a `--jobs` child's stdout line that carries a finding begins.
pub const LINE_PREFIX: &str = "explore-finding ";
/// Findings shown in the summary's table.
const TABLE_ROWS: usize = 100;
/// Characters of a failure's message in the summary's table.
const MESSAGE_CHARS: usize = 300;

/// One shrunk finding, as reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub seed: u64,
    /// The kind of failure (`Divergence`, `Witness`, `Model`, `Panic`, `Parse`).
    pub kind: String,
    /// The kind of directive it shows at (`fetch`), empty if none.
    pub directive: String,
    pub message: String,
    /// Directives before and after shrinking.
    pub directives: (usize, usize),
    /// The scenario file, relative to `--out`.
    pub scenario: String,
    /// Its golden, relative to `--out`, if the reference run gave one.
    pub golden: Option<String>,
    /// Whether both were written.
    pub written: bool,
    /// The commands that regenerate the scenario and replay the file.
    pub regenerate: String,
    pub replay: String,
}

impl Finding {
    /// The finding as one stdout line of a `--jobs` child.
    pub fn line(&self) -> String {
        let json = serde_json::to_string(self).expect("a finding serializes");
        format!("{LINE_PREFIX}{json}")
    }

    /// A finding from a child's stdout line, if the line is one.
    pub fn from_line(line: &str) -> Option<Finding> {
        serde_json::from_str(line.strip_prefix(LINE_PREFIX)?).ok()
    }

    /// `Divergence at fetch`.
    fn what(&self) -> String {
        match self.directive.as_str() {
            "" => self.kind.clone(),
            directive => format!("{} at {directive}", self.kind),
        }
    }

    /// Where the scenario and its golden are: `artifact` is the name the
    /// workflow uploads `out` as, if it does.
    fn place(&self, out: &str, artifact: Option<&str>) -> String {
        let mut files = vec![self.scenario.clone()];
        files.extend(self.golden.clone());
        let within = match artifact {
            Some(name) => format!("artifact {name}"),
            None => out.to_string(),
        };
        match self.written {
            true => format!("{within}: {}", files.join(", ")),
            false => format!("not written (see the log): {}", files.join(", ")),
        }
    }
}

/// The `::error` command of a finding.
pub fn annotation(finding: &Finding, out: &str, artifact: Option<&str>) -> String {
    let title = format!("explore: {} (seed {})", finding.what(), finding.seed);
    let message = format!(
        "{}\nshrunk from {} to {} directives\nscenario and golden: {}\nregenerate: {}\nreplay: {}",
        finding.message,
        finding.directives.0,
        finding.directives.1,
        finding.place(out, artifact),
        finding.regenerate,
        finding.replay
    );
    Annotation {
        file: None,
        line: None,
        title: &title,
        message: &message,
    }
    .command()
}

/// The job summary of an exploration (`scope` names it: `explore --seeds
/// 0..4000 --partition 3/8`) that explored `explored` scenarios: one line
/// if nothing was found, else a table of the findings and where they are.
pub fn summary(
    scope: &str,
    explored: usize,
    findings: &[Finding],
    out: &str,
    artifact: Option<&str>,
) -> String {
    let heading = format!(
        "### {}: explored {explored} scenarios, {} failures\n",
        markdown::code(scope),
        findings.len()
    );
    if findings.is_empty() {
        return heading;
    }
    let rows: Vec<Vec<String>> = findings
        .iter()
        .take(TABLE_ROWS)
        .map(|f| {
            let mut message: String = f.message.chars().take(MESSAGE_CHARS).collect();
            if f.message.chars().count() > MESSAGE_CHARS {
                message.push('…');
            }
            vec![
                f.seed.to_string(),
                markdown::text(&f.what()),
                markdown::text(&message),
                format!("{} → {}", f.directives.0, f.directives.1),
                markdown::code(&f.place(out, artifact)),
                markdown::code(&f.replay),
            ]
        })
        .collect();
    let head = [
        "seed",
        "failure",
        "message",
        "directives (shrunk)",
        "scenario and golden",
        "replay",
    ];
    let mut text = format!("{heading}\n{}", markdown::table(&head, &rows));
    if findings.len() > TABLE_ROWS {
        let left = findings.len() - TABLE_ROWS;
        text.push_str(&format!(
            "\n{left} more finding(s) left out of the table: the step's log lists every one.\n"
        ));
    }
    let within = match artifact {
        Some(name) => format!("the artifact {}", markdown::code(name)),
        None => markdown::code(out),
    };
    text.push_str(&format!(
        "\nEach scenario and its golden are in {within} under `testdata/explore/` and `goldens/explore/`, with a `suite.yaml` of the runs: replay them there, find the bug, and move a reviewed scenario into `testdata/`.\n"
    ));
    text
}

/// A `--jobs` child's stdout: the lines to print (all but the findings and
/// the last line), the findings, and the last line (its summary).
pub fn job_output(text: &str) -> (Vec<&str>, Vec<Finding>, Option<&str>) {
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop();
    let mut shown = Vec::new();
    let mut findings = Vec::new();
    for line in lines {
        match Finding::from_line(line) {
            Some(finding) => findings.push(finding),
            None => shown.push(line),
        }
    }
    (shown, findings, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding() -> Finding {
        Finding {
            seed: 1167,
            kind: "Model".into(),
            directive: "query".into(),
            message: "line 9: the model says `1 | 2`,\nthe run says 100%".into(),
            directives: (64, 7),
            scenario: "testdata/explore/seed-1167.dd".into(),
            golden: Some("goldens/explore/seed-1167.dd".into()),
            written: true,
            regenerate:
                "cargo run --release -p explore -- --seeds 1167..1168 --steps 30 --out explore-out"
                    .into(),
            replay: "cargo run -p runner -- explore-out/testdata --filter explore/seed-1167.dd"
                .into(),
        }
    }

    #[test]
    fn a_finding_crosses_from_a_job_as_one_line() {
        let f = finding();
        let line = f.line();
        assert!(!line.contains('\n'));
        assert_eq!(Finding::from_line(&line), Some(f.clone()));
        let text = format!("time: x\n{line}\nexplored 3 scenarios in 1.0 s (3.00/s), 1 failures\n");
        let (shown, findings, last) = job_output(&text);
        assert_eq!(shown, ["time: x"]);
        assert_eq!(findings, [f]);
        assert_eq!(
            last,
            Some("explored 3 scenarios in 1.0 s (3.00/s), 1 failures")
        );
    }

    #[test]
    fn a_finding_is_annotated_with_its_seed_size_and_artifact() {
        assert_eq!(
            annotation(&finding(), "explore-out", Some("explore-part-3")),
            "::error title=explore%3A Model at query (seed 1167)::line 9: the model says `1 | 2`,%0Athe run says 100%25%0Ashrunk from 64 to 7 directives%0Ascenario and golden: artifact explore-part-3: testdata/explore/seed-1167.dd, goldens/explore/seed-1167.dd%0Aregenerate: cargo run --release -p explore -- --seeds 1167..1168 --steps 30 --out explore-out%0Areplay: cargo run -p runner -- explore-out/testdata --filter explore/seed-1167.dd\n"
        );
    }

    #[test]
    fn the_summary_has_a_row_per_finding_and_names_the_artifact() {
        let scope = "explore --seeds 0..4000 --partition 3/8";
        assert_eq!(
            summary(scope, 500, &[], "explore-out", Some("explore-part-3")),
            "### <code>explore --seeds 0..4000 --partition 3/8</code>: explored 500 scenarios, 0 failures\n"
        );
        assert_eq!(
            summary(scope, 500, &[finding()], "explore-out", Some("explore-part-3")),
            "### <code>explore --seeds 0..4000 --partition 3/8</code>: explored 500 scenarios, 1 failures\n\n\
             | seed | failure | message | directives (shrunk) | scenario and golden | replay |\n\
             | --- | --- | --- | --- | --- | --- |\n\
             | 1167 | Model at query | line 9&#58; the model says &#96;1 &#124; 2&#96;,␤the run says 100% | 64 → 7 | <code>artifact explore-part-3&#58; testdata/explore/seed-1167.dd, goldens/explore/seed-1167.dd</code> | <code>cargo run -p runner -- explore-out/testdata --filter explore/seed-1167.dd</code> |\n\
             \nEach scenario and its golden are in the artifact <code>explore-part-3</code> under `testdata/explore/` and `goldens/explore/`, with a `suite.yaml` of the runs: replay them there, find the bug, and move a reviewed scenario into `testdata/`.\n"
        );
    }
}

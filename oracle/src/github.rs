//! The oracle's report for a reviewer on GitHub, as the runner's
//! (`runner::report::github`, whose escaping it uses): under GitHub Actions
//! an error annotation on the golden's line of each directive PostgreSQL
//! answers otherwise (or whose marker is stale), and a Markdown job summary
//! with a row per such directive: the SQL, the golden's claim and
//! PostgreSQL's answer.

use crate::check::{Finding, Verdict};
use crate::report::Totals;
use crate::suite::FileReport;
use runner::check::site::line_of_error;
use runner::report::github::command::Annotation;
use runner::report::github::markdown;

/// Lines of each answer shown in an annotation or a table cell.
const ANSWER_LINES: usize = 10;
/// Disagreements shown in the summary's table.
const TABLE_ROWS: usize = 100;

/// What a failed finding is, in a few words.
fn what(finding: &Finding) -> String {
    match &finding.verdict {
        Verdict::Stale(reason) => format!(
            "marked `{reason}`, but PostgreSQL agrees with the golden: remove the stale marker"
        ),
        _ => "PostgreSQL answers otherwise".to_string(),
    }
}

/// At most [`ANSWER_LINES`] of `lines`, and a line saying how many more.
fn answer(lines: &[String]) -> Vec<String> {
    let mut shown: Vec<String> = lines.iter().take(ANSWER_LINES).cloned().collect();
    if lines.len() > ANSWER_LINES {
        shown.push(format!("... {} more line(s)", lines.len() - ANSWER_LINES));
    }
    shown
}

/// The `::error` commands of every disagreement, each on the golden's line
/// of its directive, and of every golden that could not be checked (on
/// the line its error names, else line 1).
pub fn annotations(files: &[FileReport]) -> String {
    let mut out = String::new();
    for file in files {
        if let Some(problem) = &file.problem {
            out.push_str(
                &Annotation {
                    file: Some(&file.path),
                    line: Some(line_of_error(problem, &file.path).unwrap_or(1)),
                    title: "oracle: golden not checked",
                    message: problem,
                }
                .command(),
            );
        }
        for finding in file.findings.iter().filter(|f| f.verdict.failed()) {
            let title = match finding.verdict {
                Verdict::Stale(_) => "oracle: stale marker",
                _ => "oracle: PostgreSQL answers otherwise",
            };
            let mut message = format!(
                "{}:{}: {}\nsql: {}\n",
                file.path,
                finding.line,
                what(finding),
                finding.sql
            );
            for (side, lines) in [("golden", &finding.golden), ("postgres", &finding.postgres)] {
                message.push_str(&format!("{side}:\n"));
                for line in answer(lines) {
                    message.push_str(&format!("  {line}\n"));
                }
            }
            out.push_str(
                &Annotation {
                    file: Some(&file.path),
                    line: Some(finding.line),
                    title,
                    message: message.trim_end(),
                }
                .command(),
            );
        }
    }
    out
}

/// An answer in one table cell: its lines (at most [`ANSWER_LINES`]) in
/// monospace, one under the other.
fn cell(lines: &[String]) -> String {
    if lines.is_empty() {
        return "(no rows)".to_string();
    }
    let shown: Vec<String> = answer(lines).iter().map(|l| markdown::code(l)).collect();
    shown.join("<br>")
}

/// The job summary of the oracle over the suite in `dir` (`scope` names
/// the run: `oracle testdata --filter tables/`): one line if nothing
/// failed, else the totals, a row per golden that could not be checked and
/// per disagreement, and how to replay one golden.
pub fn summary(scope: &str, dir: &str, files: &[FileReport], totals: Totals) -> String {
    let heading = format!(
        "### {}: {} passed, {} failed\n",
        markdown::code(scope),
        totals.passed,
        totals.failed
    );
    let mut rows: Vec<Vec<String>> = Vec::new();
    for file in files {
        if let Some(problem) = &file.problem {
            let at = markdown::code(&file.path);
            let problem = markdown::text(problem);
            rows.push(vec![at, problem, dash(), dash(), dash()]);
        }
        for finding in file.findings.iter().filter(|f| f.verdict.failed()) {
            rows.push(vec![
                markdown::code(&format!("{}:{}", file.path, finding.line)),
                markdown::text(&what(finding)),
                markdown::code(&finding.sql),
                cell(&finding.golden),
                cell(&finding.postgres),
            ]);
        }
    }
    if rows.is_empty() {
        return heading;
    }
    let total = rows.len();
    rows.truncate(TABLE_ROWS);
    let head = [
        "golden",
        "finding",
        "sql",
        "the golden claims",
        "PostgreSQL answers",
    ];
    let mut out = format!("{heading}\n{}", markdown::table(&head, &rows));
    if total > TABLE_ROWS {
        out.push_str(&format!(
            "\n{} more left out of the table: the step's log lists every one.\n",
            total - TABLE_ROWS
        ));
    }
    let replay = format!(".ci/with-postgres cargo run -p oracle -- {dir} --filter REL");
    out.push_str(&format!(
        "\nReplay one golden with {}, REL being its path under the goldens directory; a difference PostgreSQL legitimately has is marked `skip-postgres=<reason>` (docs/scenarios.md).\n",
        markdown::code(&replay)
    ));
    out
}

fn dash() -> String {
    "—".to_string()
}

/// The one-line job summary of a run that could not start.
pub fn could_not_run(scope: &str, message: &str) -> String {
    format!(
        "### {}: could not run: {}\n",
        markdown::code(scope),
        markdown::text(message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn files() -> Vec<FileReport> {
        vec![
            FileReport {
                path: "goldens/a, b.dd".into(),
                findings: vec![
                    Finding {
                        line: 3,
                        sql: "SELECT a FROM t".into(),
                        golden: lines(&["1"]),
                        postgres: lines(&["1"]),
                        verdict: Verdict::Agrees,
                    },
                    Finding {
                        line: 9,
                        sql: "SELECT a, b FROM t".into(),
                        golden: lines(&["1 |x|", "3 `y`"]),
                        postgres: lines(&["1 |x|", "2 `y`"]),
                        verdict: Verdict::Differs,
                    },
                    Finding {
                        line: 14,
                        sql: "SELECT 1/0".into(),
                        golden: lines(&["error: Evaluation error: division by zero"]),
                        postgres: lines(&["error: division by zero"]),
                        verdict: Verdict::Stale("errors-as-data".into()),
                    },
                ],
                problem: None,
            },
            FileReport {
                path: "goldens/c.dd".into(),
                findings: vec![],
                problem: Some("goldens/c.dd:4: unknown directive `x`".into()),
            },
        ]
    }

    #[test]
    fn each_disagreement_is_annotated_on_its_golden_line() {
        assert_eq!(
            annotations(&files()),
            "::error file=goldens/a%2C b.dd,line=9,title=oracle%3A PostgreSQL answers otherwise::goldens/a, b.dd:9: PostgreSQL answers otherwise%0Asql: SELECT a, b FROM t%0Agolden:%0A  1 |x|%0A  3 `y`%0Apostgres:%0A  1 |x|%0A  2 `y`\n\
             ::error file=goldens/a%2C b.dd,line=14,title=oracle%3A stale marker::goldens/a, b.dd:14: marked `errors-as-data`, but PostgreSQL agrees with the golden: remove the stale marker%0Asql: SELECT 1/0%0Agolden:%0A  error: Evaluation error: division by zero%0Apostgres:%0A  error: division by zero\n\
             ::error file=goldens/c.dd,line=4,title=oracle%3A golden not checked::goldens/c.dd:4: unknown directive `x`\n"
        );
    }

    #[test]
    fn the_summary_has_a_row_per_disagreement() {
        let totals = Totals {
            passed: 1,
            failed: 3,
        };
        let text = summary("oracle testdata", "testdata", &files(), totals);
        assert_eq!(
            text,
            "### <code>oracle testdata</code>: 1 passed, 3 failed\n\n\
             | golden | finding | sql | the golden claims | PostgreSQL answers |\n\
             | --- | --- | --- | --- | --- |\n\
             | <code>goldens/a, b.dd&#58;9</code> | PostgreSQL answers otherwise | <code>SELECT a, b FROM t</code> | <code>1 &#124;x&#124;</code><br><code>3 &#96;y&#96;</code> | <code>1 &#124;x&#124;</code><br><code>2 &#96;y&#96;</code> |\n\
             | <code>goldens/a, b.dd&#58;14</code> | marked &#96;errors-as-data&#96;, but PostgreSQL agrees with the golden&#58; remove the stale marker | <code>SELECT 1/0</code> | <code>error&#58; Evaluation error&#58; division by zero</code> | <code>error&#58; division by zero</code> |\n\
             | <code>goldens/c.dd</code> | goldens/c.dd&#58;4&#58; unknown directive &#96;x&#96; | — | — | — |\n\
             \nReplay one golden with <code>.ci/with-postgres cargo run -p oracle -- testdata --filter REL</code>, REL being its path under the goldens directory; a difference PostgreSQL legitimately has is marked `skip-postgres=<reason>` (docs/scenarios.md).\n"
        );
        let green = Totals {
            passed: 5,
            failed: 0,
        };
        let clean = [FileReport {
            path: "goldens/d.dd".into(),
            findings: vec![],
            problem: None,
        }];
        assert_eq!(
            summary("oracle testdata", "testdata", &clean, green),
            "### <code>oracle testdata</code>: 5 passed, 0 failed\n"
        );
    }
}

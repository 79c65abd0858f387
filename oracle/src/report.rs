//! The oracle's text report: a line per golden (`PASS path` or `FAIL path`),
//! under a failing one each failed directive as `path:line`, the SQL and
//! both answers, then the count of marked differences by reason and, last,
//! `N passed, M failed`, counted in compared directives: passed are those
//! PostgreSQL agrees with, failed those it differs on unmarked, stale
//! markers, and each file that could not be checked at all. Marked
//! differences are in neither count; those where the engine follows the
//! real system over PostgreSQL (`mz-...` reasons, docs/semantics.md) are
//! counted on a line of their own.

use crate::check::Verdict;
use crate::suite::FileReport;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The totals of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
}

/// The report of `files`, and its totals.
pub fn render(files: &[FileReport]) -> (String, Totals) {
    let mut out = String::new();
    let mut totals = Totals::default();
    let mut skipped: BTreeMap<&str, usize> = BTreeMap::new();
    for file in files {
        let failed: Vec<_> = file
            .findings
            .iter()
            .filter(|f| f.verdict.failed())
            .collect();
        totals.failed += failed.len() + usize::from(file.problem.is_some());
        for finding in &file.findings {
            match &finding.verdict {
                Verdict::Agrees => totals.passed += 1,
                Verdict::Skipped(reason) => *skipped.entry(reason).or_default() += 1,
                Verdict::Differs | Verdict::Stale(_) => {}
            }
        }
        if failed.is_empty() && file.problem.is_none() {
            let _ = writeln!(out, "PASS {}", file.path);
            continue;
        }
        let _ = writeln!(out, "FAIL {}", file.path);
        if let Some(problem) = &file.problem {
            let _ = writeln!(out, "    {problem}");
        }
        for finding in failed {
            let what = match &finding.verdict {
                Verdict::Stale(reason) => format!(
                    "marked `{reason}`, but PostgreSQL agrees with the golden: remove the stale marker"
                ),
                _ => "PostgreSQL answers otherwise".to_string(),
            };
            let _ = writeln!(out, "    {}:{}: {what}", file.path, finding.line);
            let _ = writeln!(
                out,
                "      sql: {}",
                finding.sql.replace('\n', "\n           ")
            );
            for (side, lines) in [("golden", &finding.golden), ("postgres", &finding.postgres)] {
                let _ = writeln!(out, "      {side}:");
                for line in lines {
                    let _ = writeln!(out, "        {line}");
                }
            }
        }
    }
    let reasons = |materialize: bool| -> Vec<String> {
        skipped
            .iter()
            .filter(|(r, _)| r.starts_with("mz-") == materialize)
            .map(|(r, n)| format!("{r} {n}"))
            .collect()
    };
    let (ours, theirs) = (reasons(false), reasons(true));
    if !ours.is_empty() {
        let _ = writeln!(out, "marked as differing: {}", ours.join(", "));
    }
    if !theirs.is_empty() {
        let _ = writeln!(
            out,
            "Materialize over PostgreSQL (docs/semantics.md): {}",
            theirs.join(", ")
        );
    }
    let _ = writeln!(out, "{} passed, {} failed", totals.passed, totals.failed);
    (out, totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Finding;

    fn finding(line: usize, verdict: Verdict) -> Finding {
        Finding {
            line,
            sql: "SELECT a\nFROM t".into(),
            golden: vec!["1".into(), "3".into()],
            postgres: vec!["1".into(), "2".into()],
            verdict,
        }
    }

    #[test]
    fn a_failure_names_file_line_sql_and_both_answers() {
        let files = [
            FileReport {
                path: "goldens/a.dd".into(),
                findings: vec![
                    finding(3, Verdict::Agrees),
                    finding(9, Verdict::Differs),
                    finding(12, Verdict::Skipped("errors-as-data".into())),
                ],
                problem: None,
            },
            FileReport {
                path: "goldens/b.dd".into(),
                findings: vec![finding(4, Verdict::Stale("compaction".into()))],
                problem: None,
            },
            FileReport {
                path: "goldens/c.dd".into(),
                findings: vec![finding(1, Verdict::Agrees)],
                problem: None,
            },
        ];
        let (text, totals) = render(&files);
        assert_eq!(
            totals,
            Totals {
                passed: 2,
                failed: 2
            }
        );
        assert_eq!(
            text,
            "FAIL goldens/a.dd\n\
             \x20   goldens/a.dd:9: PostgreSQL answers otherwise\n\
             \x20     sql: SELECT a\n\
             \x20          FROM t\n\
             \x20     golden:\n        1\n        3\n\
             \x20     postgres:\n        1\n        2\n\
             FAIL goldens/b.dd\n\
             \x20   goldens/b.dd:4: marked `compaction`, but PostgreSQL agrees with the golden: remove the stale marker\n\
             \x20     sql: SELECT a\n\
             \x20          FROM t\n\
             \x20     golden:\n        1\n        3\n\
             \x20     postgres:\n        1\n        2\n\
             PASS goldens/c.dd\n\
             marked as differing: errors-as-data 1\n\
             2 passed, 2 failed\n"
        );
    }
}

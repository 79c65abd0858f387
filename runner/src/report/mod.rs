//! What the runner prints: one line per file, the details of failures under
//! it, and the closing `N passed, M failed` line.

pub mod github;
pub mod json;
pub mod junit;
pub mod progress;

use crate::check::FileReport;

/// Indentation of detail lines under a `FAIL` line.
const INDENT: &str = "    ";

/// The lines printed for one file.
pub fn file(report: &FileReport) -> String {
    let mut out = String::new();
    // A newline in a file name must not split its line.
    let path: String = report
        .path
        .chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect();
    if report.passed() {
        out.push_str(&format!("PASS {path}"));
        if let Some(w) = &report.written {
            out.push_str(&format!(" (wrote {w})"));
        }
        out.push('\n');
        return out;
    }
    let summaries: Vec<&str> = report.problems.iter().map(|p| p.summary.as_str()).collect();
    out.push_str(&format!("FAIL {path}: {}\n", summaries.join("; ")));
    let reproduce = report.reproduce.as_ref().map(|c| format!("reproduce: {c}"));
    let details = report.problems.iter().map(|p| p.details.as_str());
    for block in details.chain(reproduce.as_deref()) {
        for line in block.lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(INDENT);
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The last line: files passed and failed.
pub fn summary(passed: usize, failed: usize) -> String {
    format!("{passed} passed, {failed} failed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Problem;

    #[test]
    fn pass_and_fail_lines() {
        let mut r = FileReport {
            path: "testdata/a.dd".into(),
            problems: vec![],
            written: None,
            ..FileReport::default()
        };
        assert_eq!(file(&r), "PASS testdata/a.dd\n");
        r.written = Some("goldens/a.dd".into());
        assert_eq!(file(&r), "PASS testdata/a.dd (wrote goldens/a.dd)\n");
        r.problems = vec![
            Problem {
                summary: "runs diverged".into(),
                details: "--- a\n+++ b".into(),
            },
            Problem {
                summary: "no golden".into(),
                details: String::new(),
            },
        ];
        assert_eq!(
            file(&r),
            "FAIL testdata/a.dd: runs diverged; no golden\n    --- a\n    +++ b\n"
        );
        assert_eq!(summary(3, 1), "3 passed, 1 failed");
        r.reproduce = Some("cargo run -p runner -- testdata --filter a.dd".into());
        assert!(file(&r).ends_with(
            "    +++ b\n    reproduce: cargo run -p runner -- testdata --filter a.dd\n"
        ));
    }
}

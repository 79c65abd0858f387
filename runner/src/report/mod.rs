//! What the runner prints: one line per file, the details of failures under
//! it, and the closing `N passed, M failed` line.

pub mod github;
pub mod json;
pub mod junit;
pub mod progress;

use crate::check::judge::Judged;
use crate::check::FileReport;

/// The first line of a foreign corpus's report.
pub const FOREIGN: &str = "foreign corpus (no suite.yaml): each file's own results are its golden, read in Materialize's dialect; a file fails only on a wrong record, a divergence or a witness";

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
        if let Some(j) = &report.judged {
            out.push_str(&format!(" ({})", j.counts()));
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

/// The closing lines of a foreign corpus's run: its records by verdict,
/// precision (agreed of answered: agreed and wrong) and coverage (agreed of
/// judged), and the constructs the engine refused, by records blocked
/// (refused, or cascaded from a refusal), most first.
pub fn corpus(judged: &Judged, files: usize) -> String {
    let answered = judged.agreed + judged.wrong;
    let all = answered + judged.unsupported + judged.cascaded;
    let percent = |n: usize, of: usize| match of {
        0 => "-".to_string(),
        _ => format!("{:.1}%", 100.0 * n as f64 / of as f64),
    };
    let mut out = format!(
        "corpus: {files} file(s), {all} record(s) judged: {}\n",
        judged.counts()
    );
    out.push_str(&format!(
        "precision (agreed / answered): {} ({} of {answered})\n",
        percent(judged.agreed, answered),
        judged.agreed
    ));
    out.push_str(&format!(
        "coverage (agreed / judged): {} ({} of {all})\n",
        percent(judged.agreed, all),
        judged.agreed
    ));
    let mut blocked: Vec<(&String, &usize)> = judged.blocked.iter().collect();
    blocked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if !blocked.is_empty() {
        out.push_str("refused constructs, by records blocked:\n");
    }
    for (construct, n) in blocked {
        out.push_str(&format!("{INDENT}{n:6}  {construct}\n"));
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

    #[test]
    fn a_corpus_closes_with_its_counts_and_refusals() {
        let mut judged = Judged {
            agreed: 199,
            unsupported: 50,
            cascaded: 10,
            wrong: 1,
            ..Judged::default()
        };
        judged.blocked.insert("subquery".into(), 40);
        judged.blocked.insert("type numeric".into(), 20);
        let r = FileReport {
            path: "mz/a.slt".into(),
            judged: Some(judged.clone()),
            ..FileReport::default()
        };
        assert_eq!(
            file(&r),
            "PASS mz/a.slt (agreed 199, unsupported 50, cascaded 10, wrong 1)\n"
        );
        assert_eq!(
            corpus(&judged, 3),
            "corpus: 3 file(s), 260 record(s) judged: agreed 199, unsupported 50, cascaded 10, wrong 1\n\
             precision (agreed / answered): 99.5% (199 of 200)\n\
             coverage (agreed / judged): 76.5% (199 of 260)\n\
             refused constructs, by records blocked:\n\
             \x20       40  subquery\n\
             \x20       20  type numeric\n"
        );
    }
}

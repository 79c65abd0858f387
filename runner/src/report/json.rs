//! `--format json`: the report as one JSON document, for tools.
//!
//! ```json
//! {"files": [{"path": "testdata/a.slt", "passed": false,
//!             "problems": [{"summary": "...", "details": "..."}],
//!             "written": null, "reproduce": "cargo run ...",
//!             "configurations": [{"name": "solo", "status": "failed", "reasons": ["..."]}]}],
//!  "passed": 0, "failed": 1, "written": [], "warnings": []}
//! ```

use crate::check::verdict::Verdict;
use crate::check::FileReport;
use serde_json::{json, Value};

/// The document for `reports`, with the goldens a rewrite wrote and the
/// warnings the text report prints before its file lines.
pub fn render(reports: &[FileReport], written: &[String], warnings: &[String]) -> String {
    let files: Vec<Value> = reports.iter().map(file).collect();
    let passed = reports.iter().filter(|r| r.passed()).count();
    let doc = json!({
        "files": files,
        "passed": passed,
        "failed": reports.len() - passed,
        "written": written,
        "warnings": warnings,
    });
    serde_json::to_string_pretty(&doc).expect("a JSON value serializes")
}

fn file(r: &FileReport) -> Value {
    let problems: Vec<Value> = r
        .problems
        .iter()
        .map(|p| json!({"summary": p.summary, "details": p.details}))
        .collect();
    let configurations: Vec<Value> = r
        .configurations
        .iter()
        .map(|(name, v)| match v {
            Verdict::Passed => json!({"name": name, "status": "passed", "reasons": []}),
            Verdict::Failed(reasons) => {
                json!({"name": name, "status": "failed", "reasons": reasons})
            }
            Verdict::NotRun(reason) => {
                json!({"name": name, "status": "not-run", "reasons": [reason]})
            }
        })
        .collect();
    json!({
        "path": r.path,
        "passed": r.passed(),
        "problems": problems,
        "written": r.written,
        "reproduce": r.reproduce,
        "configurations": configurations,
        "judged": r.judged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_with_totals() {
        let r = FileReport {
            path: "testdata/a.slt".into(),
            configurations: vec![("solo".into(), Verdict::Passed)],
            ..FileReport::default()
        };
        let warnings = ["skipped testdata/.#a.slt: an editor's lock file".to_string()];
        let doc: Value = serde_json::from_str(&render(&[r], &[], &warnings)).unwrap();
        assert_eq!(doc["passed"], 1);
        assert_eq!(doc["warnings"][0], warnings[0]);
        assert_eq!(doc["failed"], 0);
        assert_eq!(doc["files"][0]["path"], "testdata/a.slt");
        assert_eq!(doc["files"][0]["configurations"][0]["status"], "passed");
    }
}

//! `--junit FILE`: the report as JUnit XML for CI dashboards, one test case
//! per scenario file x configuration (named `path::configuration`, like the
//! `cargo test` trials), and one per golden without a scenario.

use crate::check::verdict::Verdict;
use crate::check::FileReport;
use crate::report;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// `reports[i]` is the report of the file at `names[i]` (relative to DIR).
pub fn render(names: &[String], reports: &[FileReport]) -> Result<String, String> {
    let mut suite = TestSuite::new("conformance");
    for (name, r) in names.iter().zip(reports) {
        let text = report::file(r);
        if r.configurations.is_empty() {
            suite.add_test_case(case(name, &failed(r), &text));
            continue;
        }
        for (config, verdict) in &r.configurations {
            let case_name = format!("{name}::{config}");
            suite.add_test_case(case(&case_name, verdict, &text));
        }
    }
    let mut report = Report::new("runner");
    report.add_test_suite(suite);
    report
        .to_string()
        .map_err(|e| format!("cannot render JUnit XML: {e}"))
}

/// The verdict of a file with no configurations (a golden without a scenario).
fn failed(r: &FileReport) -> Verdict {
    if r.passed() {
        Verdict::Passed
    } else {
        Verdict::Failed(r.problems.iter().map(|p| p.summary.clone()).collect())
    }
}

fn case(name: &str, verdict: &Verdict, text: &str) -> TestCase {
    let status = match verdict {
        Verdict::Passed => TestCaseStatus::success(),
        Verdict::Failed(reasons) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(reasons.join("; "));
            s.set_description(text);
            s
        }
        Verdict::NotRun(reason) => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(reason.as_str());
            s
        }
    };
    let mut case = TestCase::new(name, status);
    if let Some((dir, _)) = name
        .split_once("::")
        .unwrap_or((name, ""))
        .0
        .rsplit_once('/')
    {
        case.set_classname(dir);
    }
    case
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Problem;

    #[test]
    fn one_case_per_file_and_configuration() {
        let pass = FileReport {
            path: "testdata/a/x.slt".into(),
            configurations: vec![
                ("solo".into(), Verdict::Passed),
                ("shared".into(), Verdict::Passed),
            ],
            ..FileReport::default()
        };
        let fail = FileReport {
            path: "testdata/b.dd".into(),
            problems: vec![Problem {
                summary: "runs diverged".into(),
                details: "detail & <more>".into(),
            }],
            configurations: vec![
                ("solo".into(), Verdict::Passed),
                (
                    "shared".into(),
                    Verdict::Failed(vec!["runs diverged".into()]),
                ),
            ],
            ..FileReport::default()
        };
        let orphan = FileReport {
            path: "goldens/c.dd".into(),
            problems: vec![Problem {
                summary: "golden without a scenario".into(),
                details: String::new(),
            }],
            ..FileReport::default()
        };
        let names = ["a/x.slt".to_string(), "b.dd".into(), "c.dd".into()];
        let xml = render(&names, &[pass, fail, orphan]).unwrap();
        assert!(xml.contains(r#"tests="5""#), "{xml}");
        assert!(xml.contains(r#"failures="2""#), "{xml}");
        assert!(
            xml.contains(r#"<testcase name="a/x.slt::solo" classname="a"/>"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<testcase name="b.dd::shared">"#), "{xml}");
        assert!(
            xml.contains(r#"<failure message="runs diverged">"#),
            "{xml}"
        );
        assert!(xml.contains("detail &amp; &lt;more&gt;"), "{xml}");
        assert!(xml.contains(r#"<testcase name="c.dd">"#), "{xml}");
    }
}

//! Checking a file of a foreign corpus (a directory without `suite.yaml`,
//! such as Materialize's `test/sqllogictest`): its own expected results
//! are its golden, so nothing is read from or written to a goldens
//! directory. Its runs are replayed and held to each other and to their
//! witnesses as any file's, so the corpus is a sharing workload; then each
//! record is judged (see [`judge`](super::judge)). The file fails where the
//! engine is wrong: a wrong record, runs that diverged, a witness that
//! failed, a panic or a malformed file; unsupported and cascaded records
//! are counted, not failed.

use super::judge::{judge, Judged};
use super::site::{line_of_error, Kind, Site};
use super::{diverged, divergence, verdict, witnesses, Checker, FileReport, FileSpec, Problem};
use crate::check::golden::Golden;
use crate::format::Format;

impl Checker<'_> {
    pub(super) fn check_foreign(&self, spec: &FileSpec) -> FileReport {
        let mut report = FileReport {
            path: spec.scenario_shown.clone(),
            ..FileReport::default()
        };
        let (script, runs) = match self.read(spec) {
            Ok(p) => p,
            Err((site, message)) => {
                report.fail(Problem::new(message, ""), site);
                self.unreadable(&mut report);
                return report;
            }
        };
        let Format::Materialize(layout) = &script.format else {
            let why = "a foreign corpus is read in Materialize's dialect (--dialect materialize)";
            let problem = Problem::new(format!("{}: {why}", spec.scenario_shown), "");
            report.fail(problem, Site::file(Kind::Malformed));
            self.unreadable(&mut report);
            return report;
        };
        let Some(records) = self.replay_all(spec, &script, &runs, &mut report) else {
            return report;
        };
        let reference = divergence::reference(&records, script.blocks.len());
        // The file is its own golden: a split is shown against no golden.
        diverged(
            spec,
            &script,
            &records,
            &reference,
            &Golden::Missing,
            &mut report,
        );
        witnesses(&records, &mut report);
        let judged: Judged = judge(layout, &reference, &spec.scenario_shown);
        let mut general = Vec::new();
        if judged.wrong > 0 {
            let summary = format!("{} wrong record(s) ({})", judged.wrong, judged.counts());
            general.push(summary.clone());
            // The file is its own golden: a wrong record is where the
            // transcript leaves it.
            let site = Site {
                line: judged
                    .wrongs
                    .first()
                    .and_then(|w| line_of_error(w, &spec.scenario_shown)),
                directive: judged.wrongs.first().cloned(),
                ..Site::file(Kind::GoldenDiff)
            };
            report.fail(Problem::new(summary, judged.wrongs.join("\n")), site);
            if report.failing_runs.is_empty() {
                report.failing_runs = vec![records[0].run.clone()];
            }
        }
        let text = |outputs: &[Option<Vec<String>>]| format!("{outputs:?}");
        let reference_text = text(&reference);
        report.configurations = verdict::per_configuration(
            &records,
            |r| text(&divergence::outputs_of(r, &reference)),
            Some(&reference_text),
            &general,
        );
        report.judged = Some(judged);
        report
    }
}

//! How an [`Outcome`] is printed in a transcript's output block.

use crate::format::directive::Command;
use engine::repr::Row;
use engine::{Outcome, Progress};

/// The output lines of one directive's outcome.
///
/// `ok`; rows one per line with columns separated by one space, sorted by the
/// row's own order unless the command says otherwise (an empty result prints
/// nothing); `error: <message>`; `pending: <diagnosis>`; `issued`; a
/// fetch's updates in the engine's order, then `waiting: <frontiers>`,
/// `complete: frontier [u]` or `error: <message>`.
pub fn render(command: &Command, outcome: &Outcome) -> Vec<String> {
    match outcome {
        Outcome::Updates { rows, progress } => {
            let mut lines: Vec<String> = rows.iter().map(render_row).collect();
            lines.extend(match progress {
                Progress::Waiting(frontiers) => prefixed("waiting: ", frontiers),
                Progress::Complete(frontier) => vec![format!(
                    "complete: frontier [{}]",
                    frontier.map_or(String::new(), |t| t.to_string())
                )],
                Progress::Failed(message) => prefixed("error: ", message),
            });
            lines
        }
        Outcome::Ok => vec!["ok".to_string()],
        Outcome::Rows(rows) => {
            let mut rows: Vec<&Row> = rows.iter().collect();
            if command.sorts_rows() {
                rows.sort();
            }
            rows.into_iter().map(render_row).collect()
        }
        Outcome::Error(message) => prefixed("error: ", message),
        Outcome::Pending(diagnosis) => prefixed("pending: ", diagnosis),
        Outcome::Issued => vec!["issued".to_string()],
        // Each statement's outcome in turn (only `simple` records ask).
        Outcome::Results(outcomes) => outcomes.iter().flat_map(|o| render(command, o)).collect(),
    }
}

/// One row: its datums' `Display`, separated by one space.
pub fn render_row(row: &Row) -> String {
    row.iter()
        .map(|datum| datum.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `prefix` before the first line of a possibly multi-line message (also
/// Materialize's dialect's).
pub(crate) fn prefixed(prefix: &str, message: &str) -> Vec<String> {
    let mut lines = message.lines();
    let first = lines.next().unwrap_or_default();
    std::iter::once(format!("{prefix}{first}"))
        .chain(lines.map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::repr::Datum;

    fn query(sort: bool) -> Command {
        Command::Query {
            sql: "SELECT 1".into(),
            sort,
        }
    }

    #[test]
    fn simple_outcomes() {
        let c = Command::Tick;
        assert_eq!(render(&c, &Outcome::Ok), ["ok"]);
        assert_eq!(render(&c, &Outcome::Issued), ["issued"]);
        assert_eq!(
            render(
                &c,
                &Outcome::Error("Evaluation error: division by zero".into())
            ),
            ["error: Evaluation error: division by zero"]
        );
        assert_eq!(
            render(&c, &Outcome::Pending("worker 0 paused".into())),
            ["pending: worker 0 paused"]
        );
        assert_eq!(
            render(&c, &Outcome::Error("a\nb".into())),
            ["error: a", "b"]
        );
    }

    #[test]
    fn rows_sorted_unless_nosort() {
        let rows = vec![
            vec![Datum::Int64(2), Datum::Text("b".into())],
            vec![Datum::Null, Datum::Bool(true)],
            vec![Datum::Int64(1), Datum::Null],
        ];
        assert_eq!(
            render(&query(true), &Outcome::Rows(rows.clone())),
            ["NULL true", "1 NULL", "2 b"]
        );
        assert_eq!(
            render(&query(false), &Outcome::Rows(rows.clone())),
            ["2 b", "NULL true", "1 NULL"]
        );
        let peek = Command::Peek {
            index: "i".into(),
            as_of: None,
        };
        assert_eq!(
            render(&peek, &Outcome::Rows(rows)),
            ["NULL true", "1 NULL", "2 b"]
        );
    }

    #[test]
    fn empty_result_prints_nothing() {
        assert!(render(&query(true), &Outcome::Rows(vec![])).is_empty());
    }

    #[test]
    fn a_fetch_prints_updates_in_order_then_where_it_stands() {
        let fetch = Command::Fetch { name: "s".into() };
        let rows = vec![
            vec![Datum::Int64(3), Datum::Int64(1), Datum::Int64(9)],
            vec![Datum::Int64(2), Datum::Int64(-1), Datum::Int64(1)],
        ];
        let updates = |progress| Outcome::Updates {
            rows: rows.clone(),
            progress,
        };
        assert_eq!(
            render(&fetch, &updates(Progress::Waiting("frontier [4]".into()))),
            ["3 1 9", "2 -1 1", "waiting: frontier [4]"]
        );
        assert_eq!(
            render(&fetch, &updates(Progress::Complete(Some(4))))[2],
            "complete: frontier [4]"
        );
        assert_eq!(
            render(&fetch, &updates(Progress::Complete(None)))[2],
            "complete: frontier []"
        );
        assert_eq!(
            render(&fetch, &updates(Progress::Failed("boom".into())))[2],
            "error: boom"
        );
    }
}

//! `UPDATE`, as Materialize's read-then-write runs it (its
//! `sequence_read_then_write`): the read selects the rows the WHERE
//! clause passes, failing with the read's error; then each selected row's
//! SET expressions are evaluated over the row as it was, as written (none
//! of the optimizer's rewrites, `eval/as_written.rs`), an evaluation
//! error failing the statement with the error's own text (no
//! `Evaluation error: ` before it, as the sequencer reports it); only then
//! is every new row checked against the table's `NOT NULL` columns. A
//! statement that fails changes nothing (docs/semantics.md, "Writes").

use super::ddl::plan_columns;
use super::Engine;
use crate::api::Outcome;
use crate::eval::passes;
use crate::packed::PackedRow;
use crate::plan::{not_null_violation, ScalarExpr};
use crate::repr::{Diff, GlobalId, Row};

impl Engine {
    pub(super) fn update(
        &mut self,
        table: GlobalId,
        assignments: &[(usize, ScalarExpr)],
        predicates: &[ScalarExpr],
    ) -> Outcome {
        let mut selected: Vec<(Row, Diff)> = Vec::new();
        for (row, count) in self.rows_of(table) {
            match passes(predicates, &row) {
                Err(e) => return Outcome::Error(e.0),
                Ok(false) => {}
                Ok(true) => selected.push((row, count)),
            }
        }
        let mut new_rows = Vec::with_capacity(selected.len());
        for (row, _) in &selected {
            let mut new = row.clone();
            for (column, expr) in assignments {
                match expr.eval_as_written(row) {
                    Ok(d) => new[*column] = d,
                    Err(e) => return Outcome::Error(e.what().to_string()),
                }
            }
            new_rows.push(new);
        }
        let columns = plan_columns(&self.catalog, table);
        if let Some(e) = new_rows
            .iter()
            .find_map(|r| not_null_violation(&columns, r))
        {
            return Outcome::Error(e);
        }
        let mut updates = Vec::with_capacity(2 * selected.len());
        for ((row, count), new) in selected.iter().zip(&new_rows) {
            updates.push((PackedRow::pack(row), -count));
            updates.push((PackedRow::pack(new), *count));
        }
        self.checked_write(table, updates)
    }
}

//! Window functions: a reduce keyed by each row's partition, whose output
//! for a partition is every row of it with its values (`eval::window`),
//! as Materialize renders a window function's reduce over the partition.
//! The output of a reduce is a collection, so each partition's rows are
//! retracted and emitted anew whenever one of its rows changes, under
//! every worker count alike.

use crate::eval::window_partition;
use crate::plan::Window;
use crate::repr::{DataflowError, Diff, Row};
use crate::typedefs::{Errs, Oks};

use super::collections::split;

pub fn render<'s>(oks: Oks<'s>, errs: Errs<'s>, window: &Window) -> (Oks<'s>, Errs<'s>) {
    let partition = window.partition.clone();
    let window = window.clone();
    let results = oks
        .map(move |row| (partition.iter().map(|c| row[*c].clone()).collect(), row))
        .reduce(
            move |_key: &Row,
                  rows: &[(&Row, Diff)],
                  out: &mut Vec<(Result<Row, DataflowError>, Diff)>| {
                match window_partition(&window, rows) {
                    Ok(rows) => out.extend(rows.into_iter().map(|r| (Ok(r), 1))),
                    Err(e) => out.push((Err(e), 1)),
                }
            },
        )
        .map(|(_key, result)| result);
    split(results, errs)
}
